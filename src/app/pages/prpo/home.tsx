import { HomeScreen } from '../../screens/home/home-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoHomePage() {
  return (
    <ScreenFrame part="prpo">
      <HomeScreen part="prpo" />
    </ScreenFrame>
  );
}
