import { useSignals } from '@preact/signals-react/runtime';
import { StandbyScreen } from '../../screens/standby/standby-screen';
import { movies } from '../../stores/prpt';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptStandbyPage() {
  useSignals();
  return (
    <ScreenFrame part="prpt" bare>
      <StandbyScreen part="prpt" films={movies.value} />
    </ScreenFrame>
  );
}
