import { MoviesScreen } from '../../screens/movies/movies-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoMoviesPage() {
  return (
    <ScreenFrame part="prpo">
      <MoviesScreen part="prpo" />
    </ScreenFrame>
  );
}
