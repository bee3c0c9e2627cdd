import crypto from 'node:crypto';

export const newId = (): string => crypto.randomUUID();

/** 32 random bytes (256 bits), URL-safe. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');

/** One-shot `crypto.hash`: no Hash object per call (every signed-in request hashes its token). */
export const sha256Hex = (text: string): string => crypto.hash('sha256', text, 'hex');

export const nowIso = (): string => new Date().toISOString();

export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();
