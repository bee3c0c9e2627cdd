import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The S3_* settings that point a service at this server. */
  env: Record<string, string>;
  /** Process id (the cluster test watches it). */
  pid: number;
  close: () => Promise<void>;
}

/** s3rver's fixed key pair; it checks every request's signature against it. */
export const S3_TEST_KEYS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/** Starts s3rver in a child process with a fresh folder and bucket; close() stops it and removes both. */
export async function startS3Server(bucket = 'media'): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fst-s3-'));
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 's3-server-main.mjs'), directory, bucket],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.stdin?.end();
    await exited;
    fs.rmSync(directory, { recursive: true, force: true });
  };
  const first = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(line));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
  }).catch(async (err) => {
    await close();
    throw err;
  });
  const { port } = JSON.parse(first) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    pid: child.pid ?? 0,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', ...S3_TEST_KEYS },
    close,
  };
}
