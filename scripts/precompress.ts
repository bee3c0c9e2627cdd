/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of the client build, so the
 * server (server/plugins/spa.ts, `preCompressed`) and nginx (`gzip_static`, docs/deploy.md) send
 * compressed bytes without compressing on each request, at the best settings, which are too slow to
 * use per request. A copy not smaller than the file itself is not written.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Below this size a compressed copy saves less than a request's headers cost; HTML documents are
 * compressed at any size (index.html is also every client route's answer, server/plugins/not-found.ts).
 */
export const PRECOMPRESS_MIN_BYTES = 1024;
/** The types browsers receive compressed (fonts and images are compressed in their own formats). */
export const PRECOMPRESS_EXTENSIONS = /\.(js|mjs|css|html|svg|json|wasm|txt|xml|webmanifest|map)$/i;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // .vite/ holds the manifest, which is read at build time and never served.
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export interface PrecompressResult {
  file: string;
  raw: number;
  br: number | null;
  gzip: number | null;
}

/** Compresses every eligible file under `dir` (both encodings, in parallel per file). */
export async function precompressDir(dir: string): Promise<PrecompressResult[]> {
  const jobs: Promise<PrecompressResult>[] = [];
  for await (const file of files(dir)) {
    if (!PRECOMPRESS_EXTENSIONS.test(file)) continue;
    if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES && !file.endsWith('.html')) continue;
    jobs.push(
      (async () => {
        const bytes = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              [constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm')
                ? constants.BROTLI_MODE_GENERIC
                : constants.BROTLI_MODE_TEXT,
            },
          }),
          gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        const keep = async (data: Buffer, ext: string) => {
          if (data.length >= bytes.length) return null;
          await writeFile(`${file}.${ext}`, data);
          return data.length;
        };
        return {
          file: relative(dir, file),
          raw: bytes.length,
          br: await keep(br, 'br'),
          gzip: await keep(gzipped, 'gz'),
        };
      })(),
    );
  }
  return Promise.all(jobs);
}

/** The build step: runs once the client is written (public/ files included), on every `vite build`. */
export function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler(options) {
        if (!options.dir) return;
        const done = await precompressDir(options.dir);
        const raw = done.reduce((n, r) => n + r.raw, 0);
        const br = done.reduce((n, r) => n + (r.br ?? r.raw), 0);
        this.info(
          `precompressed ${done.length} files: ${(raw / 1024).toFixed(1)} KB → ${(br / 1024).toFixed(1)} KB br`,
        );
      },
    },
  };
}
