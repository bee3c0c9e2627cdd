import { useAfterLogin } from '../../lib/use-after-login';
import { LoginScreen } from '../../screens/login/login-screen';
import { ScreenFrame } from '../../screens/chrome/screen-frame';

export default function PrpoLoginPage() {
  const done = useAfterLogin();
  return (
    <ScreenFrame part="prpo">
      <LoginScreen part="prpo" onLoggedIn={done} />
    </ScreenFrame>
  );
}
