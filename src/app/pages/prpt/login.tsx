import { useAfterLogin } from '../../lib/use-after-login';
import { LoginScreen } from '../../screens/login/login-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrptLoginPage() {
  const done = useAfterLogin();
  return (
    <ScreenFrame part="prpt">
      <LoginScreen part="prpt" onLoggedIn={done} />
    </ScreenFrame>
  );
}
