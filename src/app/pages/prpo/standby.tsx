import { useSignals } from '@preact/signals-react/runtime';
import { StandbyScreen } from '../../screens/standby/standby-screen';
import { movies } from '../../stores/prpo';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoStandbyPage() {
  useSignals();
  return (
    <ScreenFrame part="prpo" bare>
      <StandbyScreen part="prpo" films={movies.value} />
    </ScreenFrame>
  );
}
