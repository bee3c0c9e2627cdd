/**
 * `use-sync-external-store/shim` for React 19, which has the hook itself: @preact/signals-react
 * imports the shim, whose fallback for React before 18 would otherwise ship in the entry chunk.
 * vite.config.ts points the shim's import here.
 */
export { useSyncExternalStore } from 'react';
