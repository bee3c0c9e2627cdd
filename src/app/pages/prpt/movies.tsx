import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptMoviesPage() {
  return <PlaceholderPage titleKey="page.prpt.movies" />;
}
