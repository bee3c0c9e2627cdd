import { ReportScreen } from '../../screens/report/report-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptReportPage() {
  return (
    <ScreenFrame part="prpt">
      <ReportScreen part="prpt" />
    </ScreenFrame>
  );
}
