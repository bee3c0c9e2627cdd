import { useParams } from 'react-router-dom';
import { SoundSuggestScreen } from '../../screens/sound-suggest/sound-suggest-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptSoundSuggestPage() {
  const { id = '' } = useParams();
  return (
    <ScreenFrame part="prpt">
      <SoundSuggestScreen id={id} />
    </ScreenFrame>
  );
}
