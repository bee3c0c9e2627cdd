import os from 'node:os';
import type { FastifyRequest } from 'fastify';

type Interfaces = ReturnType<typeof os.networkInterfaces>;

/** Names a phone cannot open: they are the phone itself, not this server. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;
/** Addresses the server listens on that include every interface (so also its LAN address). */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '[::]']);

const PRIVATE_V4 = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./];

/**
 * This machine's address on its local network: the first non-internal IPv4 address, a private-range
 * one (10/8, 172.16/12, 192.168/16) before any other; link-local (169.254/16) never. Null when there is none.
 */
export function lanAddress(interfaces: Interfaces = os.networkInterfaces()): string | null {
  const v4 = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))
    .map((a) => a.address);
  return v4.find((a) => PRIVATE_V4.some((r) => r.test(a))) ?? v4[0] ?? null;
}

/** `host[:port]` split; IPv6 literals keep their brackets. */
function splitHost(host: string): { name: string; port: string } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  return m ? { name: m[1], port: m[2] ?? '' } : { name: host, port: '' };
}

/**
 * The public origin for links handed to other devices (QR codes, share links): PUBLIC_URL when set,
 * else the request's own host and scheme (X-Forwarded-Host/-Proto count only from a proxy TRUST_PROXY
 * trusts). A kiosk that opened the app as localhost or 127.0.0.1 would hand the phone its own loopback
 *, so such a host is replaced by this machine's LAN address, same port, when the
 * server listens on every interface (HOST 0.0.0.0, the default) and has one; else it stays, and the
 * start-up line (`linkNotice`) tells the operator to set PUBLIC_URL.
 */
export function publicBase(request: FastifyRequest, interfaces?: Interfaces): string {
  const configured = request.server.config.publicUrl;
  if (configured) return configured;
  const { name, port } = splitHost(request.host);
  if (LOOPBACK.test(name) && EVERY_INTERFACE.has(request.server.config.host)) {
    const lan = lanAddress(interfaces);
    if (lan) return `${request.protocol}://${lan}${port ? `:${port}` : ''}`;
  }
  return `${request.protocol}://${request.host}`;
}

/**
 * The operator's start-up line about the links in QR codes: where they point when opened from this
 * machine, and what to set when a phone cannot reach that.
 */
export function linkNotice(
  config: { publicUrl?: string; host: string },
  port: number,
  interfaces?: Interfaces,
): string {
  if (config.publicUrl) return `QR codes and share links point to ${config.publicUrl} (PUBLIC_URL).`;
  const lan = EVERY_INTERFACE.has(config.host) ? lanAddress(interfaces) : null;
  if (lan)
    return `QR codes and share links point to http://${lan}:${port}/ (this machine's LAN address); phones must be on the same network. Set PUBLIC_URL to choose another address.`;
  return `QR codes and share links point to the address the kiosk opened (here http://127.0.0.1:${port}/), which a phone cannot open: set PUBLIC_URL=http://<this machine's address>:${port} (or HOST=0.0.0.0 on a machine with a LAN address).`;
}
