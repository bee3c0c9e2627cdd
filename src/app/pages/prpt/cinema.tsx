import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptCinemaPage() {
  return <PlaceholderPage titleKey="page.prpt.cinema" />;
}
