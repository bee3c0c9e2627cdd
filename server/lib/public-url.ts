import type { FastifyRequest } from 'fastify';

/**
 * The public origin for links handed to other devices (QR codes, share links): PUBLIC_URL when set,
 * else the request's own host and scheme (X-Forwarded-Host/-Proto count only from a proxy TRUST_PROXY trusts).
 */
export function publicBase(request: FastifyRequest): string {
  const configured = request.server.config.publicUrl;
  if (configured) return configured;
  return `${request.protocol}://${request.host}`;
}
