import { HomeScreen } from '../../screens/home/home-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptHomePage() {
  return (
    <ScreenFrame part="prpt">
      <HomeScreen part="prpt" />
    </ScreenFrame>
  );
}
