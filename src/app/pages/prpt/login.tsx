import { LoginPlaceholder } from '../../lib/login-placeholder';

export default function PrptLoginPage() {
  return <LoginPlaceholder titleKey="page.prpt.login" />;
}
