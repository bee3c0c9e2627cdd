import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoStandbyPage() {
  return <PlaceholderPage titleKey="page.prpo.standby" />;
}
