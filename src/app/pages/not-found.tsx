import { NotFoundScreen } from '../screens/not-found/not-found-screen';

export default function NotFoundPage() {
  return <NotFoundScreen />;
}
