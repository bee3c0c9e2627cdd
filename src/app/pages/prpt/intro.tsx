import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptIntroPage() {
  return <PlaceholderPage titleKey="page.prpt.intro" />;
}
