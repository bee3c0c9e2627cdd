import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type _Object,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config';
import { assertSafeKey, type ByteRange, type MediaStat, type MediaStorage, mediaUrl } from './media-storage';
import { cacheControlFor, contentTypeOf } from './media-types';

/** Deletes run one object at a time, this many at once (see deletePrefix). */
const DELETE_CONCURRENCY = 8;

function clientFor(settings: S3Settings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint,
    forcePathStyle: settings.forcePathStyle,
    // Without keys the SDK's own chain applies (AWS_* variables, instance or pod roles).
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // The SDK's default CRC32 trailers (aws-chunked uploads) are not understood by many
    // S3-compatible stores; checksums only where the API requires them keeps plain PUTs.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * MediaStorage in an S3-compatible bucket (AWS S3, MinIO, and the S3 APIs of other clouds): the
 * same keys as on disk under an optional prefix. A PUT replaces an object whole, so readers never
 * see half a file, as with the file system's rename.
 */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  /** Presigned URLs are signed for the host the browser uses, which may differ from the app's. */
  private readonly signer: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = clientFor(settings, settings.endpoint);
    this.signer =
      settings.publicEndpoint && settings.publicEndpoint !== settings.endpoint
        ? clientFor(settings, settings.publicEndpoint)
        : this.client;
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return this.settings.prefix + key;
  }

  async put(key: string, data: Buffer | Readable): Promise<void> {
    const params = {
      Bucket: this.settings.bucket,
      Key: this.objectKey(key),
      ContentType: contentTypeOf(key),
      CacheControl: cacheControlFor(key),
    };
    if (Buffer.isBuffer(data)) {
      await this.client.send(new PutObjectCommand({ ...params, Body: data, ContentLength: data.length }));
      return;
    }
    // A stream of unknown length: one PUT when it fits a part, a multipart upload otherwise.
    await new Upload({ client: this.client, params: { ...params, Body: data }, queueSize: 2 }).done();
  }

  async get(key: string): Promise<Buffer> {
    const res = await this.client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
    if (!res.Body) throw new Error(`Empty answer for media ${key}`);
    return Buffer.from(await res.Body.transformToByteArray());
  }

  stream(key: string, range?: ByteRange): Readable {
    const out = new PassThrough();
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: this.objectKey(key),
      Range: range ? `bytes=${range.start}-${range.end}` : undefined,
    });
    // A client that goes away destroys `out`, and pipeline then stops the download too.
    this.client
      .send(command)
      .then((res) => pipeline(res.Body as Readable, out))
      .catch((err: Error) => out.destroy(err));
    return out;
  }

  async stat(key: string): Promise<MediaStat | null> {
    try {
      const res = await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return { size: res.ContentLength ?? 0, mtimeMs: res.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
  }

  /**
   * Lists the prefix and deletes object by object. The batch call (DeleteObjects) needs a body
   * checksum that stores disagree on (Content-MD5 or CRC32); a film has a few dozen objects.
   */
  async deletePrefix(prefix: string): Promise<void> {
    for await (const objects of this.pages(prefix)) {
      const keys = objects.flatMap((o) => (o.Key ? [o.Key] : []));
      for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
        await Promise.all(
          keys
            .slice(i, i + DELETE_CONCURRENCY)
            .map((Key) => this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key }))),
        );
      }
    }
  }

  async *list(prefix: string): AsyncIterable<{ key: string; mtimeMs: number }> {
    for await (const objects of this.pages(prefix)) {
      for (const o of objects) {
        if (!o.Key) continue;
        yield {
          key: o.Key.slice(this.settings.prefix.length),
          mtimeMs: o.LastModified?.getTime() ?? Date.now(),
        };
      }
    }
  }

  /** The objects under a folder, a listing page at a time. */
  private async *pages(prefix: string): AsyncIterable<_Object[]> {
    const listPrefix = `${this.objectKey(prefix.replace(/\/+$/, ''))}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: listPrefix,
          ContinuationToken: token,
        }),
      );
      yield page.Contents ?? [];
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  url(key: string): string {
    return mediaUrl(key);
  }

  localPath(): null {
    return null;
  }

  signedUrl(key: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(
      this.signer,
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      { expiresIn: ttlSeconds },
    );
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
  }

  close(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
