import { IntroScreen } from '../../screens/intro/intro-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptIntroPage() {
  return (
    <ScreenFrame part="prpt">
      <IntroScreen part="prpt" />
    </ScreenFrame>
  );
}
