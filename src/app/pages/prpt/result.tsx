import { ResultScreen } from '../../screens/result/result-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptResultPage() {
  return (
    <ScreenFrame part="prpt">
      <ResultScreen part="prpt" />
    </ScreenFrame>
  );
}
