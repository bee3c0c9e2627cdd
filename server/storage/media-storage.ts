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
 * `films/<id>/video.mp4`. The file-system implementation is the default; an object store can
 * implement the same interface without touching routes.
 */
export interface MediaStorage {
  put(key: string, data: Buffer | Readable): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string, range?: ByteRange): Readable;
  /** null when the key does not exist. */
  stat(key: string): Promise<MediaStat | null>;
  delete(key: string): Promise<void>;
  /** Deletes every key under a prefix (used when a film is re-imported). */
  deletePrefix(prefix: string): Promise<void>;
  /** Relative URL the client prefixes with /producer (spec §7): `/media/<key>`. */
  url(key: string): string;
  /** Absolute local path when the backend is a file system (ffmpeg reads it), else null. */
  localPath(key: string): string | null;
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
