import { PartLayout } from './part-layout';

export function PrptLayout() {
  return <PartLayout part="prpt" />;
}
