import { useParams } from 'react-router-dom';
import { CinemaScreen } from '../../screens/cinema/cinema-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptCinemaPage() {
  const { id = '' } = useParams();
  return (
    <ScreenFrame part="prpt">
      <CinemaScreen part="prpt" id={id} />
    </ScreenFrame>
  );
}
