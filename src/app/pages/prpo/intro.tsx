import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoIntroPage() {
  return <PlaceholderPage titleKey="page.prpo.intro" />;
}
