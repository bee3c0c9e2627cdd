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
 * may be cached for long. Learners' takes are kept by no cache: a kiosk's browser is shared, and the
 * next learner at it must not find the previous one's takes there.
 */
export function cacheControlFor(key: string): string {
  if (key.startsWith('takes/')) return 'no-store';
  if (key.startsWith('films/')) return 'public, max-age=604800';
  return 'public, max-age=3600';
}
