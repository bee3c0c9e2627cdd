import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptStandbyPage() {
  return <PlaceholderPage titleKey="page.prpt.standby" />;
}
