import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptHomePage() {
  return <PlaceholderPage titleKey="page.prpt.home" />;
}
