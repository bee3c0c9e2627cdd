import { useParams } from 'react-router-dom';
import { ReportScreen } from '../../screens/report/report-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoReportPage() {
  const { id = '' } = useParams();
  return (
    <ScreenFrame part="prpo">
      <ReportScreen part="prpo" id={id} />
    </ScreenFrame>
  );
}
