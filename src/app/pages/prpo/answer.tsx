import { useParams } from 'react-router-dom';
import { AnswerScreen } from '../../screens/answer/answer-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoAnswerPage() {
  const { id = '' } = useParams();
  return (
    <ScreenFrame part="prpo">
      <AnswerScreen part="prpo" id={id} key={id} />
    </ScreenFrame>
  );
}
