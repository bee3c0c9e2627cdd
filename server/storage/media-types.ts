/** Content types of the media we store, by file extension (the media route and the object store share it). */
const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'text/plain; charset=utf-8',
};

export function contentTypeOf(key: string): string {
  const ext = key.split('.').pop()?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/**
 * Film media sit under a per-import version prefix, so their URLs change with their content and
 * may be cached for long; learners' takes are private to the browser that made them.
 */
export function cacheControlFor(key: string): string {
  if (key.startsWith('takes/')) return 'private, max-age=3600';
  if (key.startsWith('films/')) return 'public, max-age=604800';
  return 'public, max-age=3600';
}
