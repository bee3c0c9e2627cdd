import { useParams } from 'react-router-dom';
import { CinemaScreen } from '../../screens/cinema/cinema-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoCinemaPage() {
  const { id = '' } = useParams();
  return (
    <ScreenFrame part="prpo">
      <CinemaScreen part="prpo" id={id} />
    </ScreenFrame>
  );
}
