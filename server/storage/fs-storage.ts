import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ByteRange, type MediaStat, type MediaStorage } from './media-storage';

/** MediaStorage over a folder (DATA_DIR/media). Writes go to a temp file then rename, so readers never see half a file. */
export class FsMediaStorage implements MediaStorage {
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
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
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

  url(key: string): string {
    assertSafeKey(key);
    return `/media/${key}`;
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }
}
