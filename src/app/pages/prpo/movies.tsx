import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoMoviesPage() {
  return <PlaceholderPage titleKey="page.prpo.movies" />;
}
