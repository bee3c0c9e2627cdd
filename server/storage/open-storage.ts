import type { StorageConfig } from '../config';
import { FsMediaStorage } from './fs-storage';
import type { MediaStorage } from './media-storage';
import { S3MediaStorage } from './s3-storage';

/** The store the configuration names: a folder (default DATA_DIR/media) or an S3-compatible bucket. */
export function openStorage(config: StorageConfig): MediaStorage {
  return config.kind === 's3' ? new S3MediaStorage(config) : new FsMediaStorage(config.root);
}
