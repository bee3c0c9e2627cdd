import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrpoReportPage() {
  return <PlaceholderPage titleKey="page.prpo.report" />;
}
