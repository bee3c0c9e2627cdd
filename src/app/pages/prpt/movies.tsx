import { MoviesScreen } from '../../screens/movies/movies-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptMoviesPage() {
  return (
    <ScreenFrame part="prpt">
      <MoviesScreen part="prpt" />
    </ScreenFrame>
  );
}
