import { PartLayout } from './part-layout';

export function PrpoLayout() {
  return <PartLayout part="prpo" />;
}
