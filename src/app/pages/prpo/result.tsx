import { ResultScreen } from '../../screens/result/result-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoResultPage() {
  return (
    <ScreenFrame part="prpo">
      <ResultScreen part="prpo" />
    </ScreenFrame>
  );
}
