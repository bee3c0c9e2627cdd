import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoCinemaPage() {
  return <PlaceholderPage titleKey="page.prpo.cinema" />;
}
