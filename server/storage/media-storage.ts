import type { Readable } from 'node:stream';

export interface MediaStat {
  size: number;
  mtimeMs: number;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * Where videos, posters, reference lines and learners' takes live. Keys are relative paths such as
 * `films/<id>/video.mp4`. The file-system implementation is the default; `S3MediaStorage` keeps the
 * same keys in an S3-compatible bucket (server/storage/open-storage.ts picks one from the config).
 */
export interface MediaStorage {
  /** `fs` or `s3`, for /health and the logs. */
  readonly kind: 'fs' | 's3';
  put(key: string, data: Buffer | Readable): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string, range?: ByteRange): Readable;
  /** null when the key does not exist. */
  stat(key: string): Promise<MediaStat | null>;
  delete(key: string): Promise<void>;
  /** Deletes every key under a prefix (used when a film is re-imported). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every key under a prefix, with its modification time (housekeeping: orphan files). */
  list(prefix: string): AsyncIterable<{ key: string; mtimeMs: number }>;
  /**
   * Deletes temporary files of writes a crash cut short (modified before `cutoffMs`) and answers how
   * many; a store whose writes leave no temporary files (S3) has no such method.
   */
  removeStaleTemporary?(cutoffMs: number): Promise<number>;
  /** Relative URL the client prefixes with /producer (src/api/image.ts): `/media/<key>`. */
  url(key: string): string;
  /** Absolute local path when the backend is a file system (ffmpeg reads it), else null. */
  localPath(key: string): string | null;
  /**
   * A short-lived URL the browser can fetch the object from directly (an S3 presigned GET), or null
   * when the store has none (local disk: the app serves the bytes).
   */
  signedUrl(key: string, ttlSeconds: number): Promise<string | null>;
  /** Resolves when the store answers (health checks); rejects with the reason otherwise. */
  check(): Promise<void>;
  /** Releases connections (object stores); the app calls it on close. */
  close?(): void;
}

/** The relative URL of a stored medium; the media route serves it (the client adds /producer, src/api/image.ts). */
export function mediaUrl(key: string): string {
  assertSafeKey(key);
  return `/media/${key}`;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Rejects keys that could escape the media root ("..", absolute paths, odd characters). */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe media key: ${JSON.stringify(key)}`);
  }
}

export function isSafeKey(key: string): boolean {
  try {
    assertSafeKey(key);
    return true;
  } catch {
    return false;
  }
}
