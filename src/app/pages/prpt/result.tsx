import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptResultPage() {
  return <PlaceholderPage titleKey="page.prpt.result" />;
}
