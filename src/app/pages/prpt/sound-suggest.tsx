import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptSoundSuggestPage() {
  return <PlaceholderPage titleKey="page.prpt.soundSuggest" />;
}
