import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoHomePage() {
  return <PlaceholderPage titleKey="page.prpo.home" />;
}
