import crypto from 'node:crypto';

export const newId = (): string => crypto.randomUUID();

/** 32 random bytes (256 bits), URL-safe. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');

export const sha256Hex = (text: string): string => crypto.createHash('sha256').update(text).digest('hex');

export const nowIso = (): string => new Date().toISOString();

export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();
