import { LoginPlaceholder } from '../../lib/login-placeholder';

export default function PrpoLoginPage() {
  return <LoginPlaceholder titleKey="page.prpo.login" />;
}
