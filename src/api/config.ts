import { AI_BASE, type Origin, PRODUCER_BASE } from './contract/endpoints';

declare global {
  interface Window {
    /** Run-time configuration a deployment may inject before the bundle (e.g. in index.html). */
    __APP_CONFIG__?: {
      aiBase?: string;
      producerBase?: string;
      kioskIdleMs?: number;
      /** This deployment's devices: `kiosk` or `personal` (src/app/lib/device.ts). */
      device?: string;
    };
  }
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

/**
 * Base URL per origin. The AI service may live on another host: build time `VITE_AI_BASE`, run time
 * `window.__APP_CONFIG__.aiBase` (wins, so one bundle serves several deployments), default same-origin `/ai`.
 */
export function baseFor(origin: Origin): string {
  const runtime = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__;
  if (origin === 'ai') {
    return trimSlash(runtime?.aiBase || import.meta.env.VITE_AI_BASE || AI_BASE);
  }
  return trimSlash(runtime?.producerBase || PRODUCER_BASE);
}
