import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';

/**
 * Where the pages may fetch media from besides their own origin: the store's public address when
 * media are delivered by presigned redirects (docs/deploy.md), plus CSP_EXTRA_ORIGINS.
 */
export function mediaOrigins(config: Config): string[] {
  const out = [...config.cspExtraOrigins];
  if (config.mediaDelivery === 'presigned' && config.storage.kind === 's3') {
    const endpoint = config.storage.publicEndpoint;
    // Without an endpoint the SDK signs virtual-hosted AWS URLs (bucket.s3.region.amazonaws.com).
    out.push(endpoint ? new URL(endpoint).origin : 'https://*.amazonaws.com');
  }
  return out;
}

/**
 * The client's policy. What the SPA loads (checked by the e2e journeys under this header): its own
 * scripts, workers and the audio worklet (`'self'`); the WASM SIMD dot kernel (src/audio/dsp/dot.ts,
 * `'wasm-unsafe-eval'`); recordings played from `blob:` URLs, and read from them by "Watch my dub",
 * which fetches each take it mixes (src/app/features/watch-dub/dub-player.ts: fetch is `connect-src`,
 * and a `blob:` URL is readable only by the origin that made it); QR codes as `data:` images; React's
 * style attributes and Vite's inlined small assets (`'unsafe-inline'` styles, `data:` fonts).
 * A deployment's run-time config (`window.__APP_CONFIG__`, src/api/config.ts) must be a script file,
 * not an inline script.
 */
export function spaPolicy(config: Config): string {
  const media = mediaOrigins(config).join(' ');
  const extra = config.cspExtraOrigins.join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${media}`,
    `media-src 'self' blob: ${media}`,
    "font-src 'self' data:",
    `connect-src 'self' blob: ${extra}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]
    .map((d) => d.trim())
    .join('; ');
}

/** The phone pages (server/h5): no scripts at all, one inline style sheet, images and forms of their own. */
export function h5Policy(config: Config): string {
  const media = mediaOrigins(config).join(' ');
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `img-src 'self' data: ${media}`,
    `media-src 'self' ${media}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]
    .map((d) => d.trim())
    .join('; ');
}

const H5_PREFIX = '/producer/h5/';

/**
 * Security headers on every answer: `nosniff` everywhere (a take or a JSON answer is never run as a
 * script or a page), and on HTML pages a Content-Security-Policy, no framing (clickjacking on the
 * QR confirm page) and no Referer (the share page's address carries its signed token).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config }) => {
    const spa = spaPolicy(opts.config);
    const h5 = h5Policy(opts.config);
    // A callback hook: no promise per answer (docs/performance.md, "The film list against its floor").
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header('x-content-type-options', 'nosniff');
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith('text/html')) {
        const phone = request.url.startsWith(H5_PREFIX);
        reply
          .header('content-security-policy', phone ? h5 : spa)
          .header('x-frame-options', 'DENY')
          .header('referrer-policy', phone ? 'no-referrer' : 'same-origin');
      }
      done(null, payload);
    });
  },
  { name: 'app-security-headers' },
);
