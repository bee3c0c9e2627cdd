import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptAnswerPage() {
  return <PlaceholderPage titleKey="page.prpt.answer" />;
}
