/**
 * The catalogue's tiers (index.ts): `first` ships with the entry, `later` comes with the screens off
 * the first path. Apart from index.ts so the route table, which the Node scripts read, can name them.
 */
export type MessageTier = 'first' | 'later';
export const MESSAGE_TIERS: readonly MessageTier[] = ['first', 'later'];
