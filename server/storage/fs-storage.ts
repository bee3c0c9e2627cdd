import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ByteRange, type MediaStat, type MediaStorage, mediaUrl } from './media-storage';

/** MediaStorage over a folder (DATA_DIR/media). Writes go to a temp file then rename, so readers never see half a file. */
export class FsMediaStorage implements MediaStorage {
  readonly kind = 'fs';

  constructor(readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer | Readable): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    // Unique per write: two uploads of one take may write the same key in the same millisecond.
    const tmp = `${target}.${crypto.randomUUID()}.tmp`;
    try {
      if (Buffer.isBuffer(data)) await fsp.writeFile(tmp, data);
      else await pipeline(data, fs.createWriteStream(tmp));
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  get(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  stream(key: string, range?: ByteRange): Readable {
    const file = this.pathOf(key);
    return range
      ? fs.createReadStream(file, { start: range.start, end: range.end })
      : fs.createReadStream(file);
  }

  async stat(key: string): Promise<MediaStat | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fsp.rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<{ key: string; mtimeMs: number }> {
    const base = prefix.replace(/\/+$/, '');
    const dir = this.pathOf(base);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const key = `${base}/${entry.name}`;
      if (entry.isDirectory()) yield* this.list(key);
      else if (entry.isFile() && !entry.name.endsWith('.tmp')) {
        const s = await fsp.stat(path.join(dir, entry.name)).catch(() => null);
        if (s) yield { key, mtimeMs: s.mtimeMs };
      }
    }
  }

  /** `put` writes `<key>.<uuid>.tmp` then renames it: a kill -9 in between leaves the temporary file. */
  async removeStaleTemporary(cutoffMs: number): Promise<number> {
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(file);
        else if (entry.isFile() && entry.name.endsWith('.tmp')) {
          const s = await fsp.stat(file).catch(() => null);
          if (s && s.mtimeMs < cutoffMs) {
            await fsp.rm(file, { force: true });
            removed += 1;
          }
        }
      }
    };
    await walk(this.root);
    return removed;
  }

  url(key: string): string {
    return mediaUrl(key);
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async signedUrl(): Promise<null> {
    return null;
  }

  async check(): Promise<void> {
    await fsp.access(this.root, fs.constants.W_OK);
  }
}
