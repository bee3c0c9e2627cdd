import { PlaceholderPage } from '../../lib/placeholder-page';

export default function PrptReportPage() {
  return <PlaceholderPage titleKey="page.prpt.report" />;
}
