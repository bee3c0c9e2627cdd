import { useParams } from 'react-router-dom';
import { AnswerScreen } from '../../screens/answer/answer-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptAnswerPage() {
  const { id = '' } = useParams();
  return (
    <ScreenFrame part="prpt">
      <AnswerScreen part="prpt" id={id} key={id} />
    </ScreenFrame>
  );
}
