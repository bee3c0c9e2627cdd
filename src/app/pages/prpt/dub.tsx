import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptDubPage() {
  return <PlaceholderPage titleKey="page.prpt.dub" />;
}
