import { IntroScreen } from '../../screens/intro/intro-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoIntroPage() {
  return (
    <ScreenFrame part="prpo">
      <IntroScreen part="prpo" />
    </ScreenFrame>
  );
}
