import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoAnswerPage() {
  return <PlaceholderPage titleKey="page.prpo.answer" />;
}
