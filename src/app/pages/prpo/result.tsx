import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoResultPage() {
  return <PlaceholderPage titleKey="page.prpo.result" />;
}
