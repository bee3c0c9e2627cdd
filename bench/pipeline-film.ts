/**
 * A ≥ 60 s demo film for the Chromium part of the bench: "The Rag on the Fridge" played N times in a
 * row (video concatenated with ffmpeg, subtitles and line annotations repeated and shifted).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ffmpeg, probeMedia } from '../server/films/ffmpeg';

const SOURCE = path.resolve(import.meta.dirname, '../demo/films/rag-on-the-fridge');

function srtTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

function parseSrtTime(t: string): number {
  const [hms, ms] = t.trim().split(',');
  const [h, m, s] = hms.split(':').map(Number);
  return ((h * 60 + m) * 60 + s) * 1000 + Number(ms);
}

export async function buildLongFilm(
  minSeconds = 60,
): Promise<{ folder: string; copies: number; stepSeconds: number; remove: () => void }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-film-'));
  const { durationMs } = await probeMedia(path.join(SOURCE, 'video.mp4'));
  const copies = Math.ceil((minSeconds * 1000) / durationMs);
  const list = path.join(folder, 'list.txt');
  fs.writeFileSync(
    list,
    Array.from({ length: copies }, () => `file '${path.join(SOURCE, 'video.mp4')}'`).join('\n'),
  );
  await ffmpeg([
    '-v',
    'error',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    path.join(folder, 'video.mp4'),
  ]);
  fs.rmSync(list);
  const { durationMs: total } = await probeMedia(path.join(folder, 'video.mp4'));
  const step = total / copies;
  const cues = fs
    .readFileSync(path.join(SOURCE, 'subtitles.srt'), 'utf8')
    .trim()
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const [, times, ...text] = block.split(/\r?\n/);
      const [a, b] = times.split('-->');
      return { start: parseSrtTime(a), end: parseSrtTime(b), text: text.join('\n') };
    });
  const srt: string[] = [];
  for (let c = 0; c < copies; c++) {
    for (const cue of cues) {
      const off = Math.round(c * step);
      srt.push(`${srt.length + 1}\n${srtTime(cue.start + off)} --> ${srtTime(cue.end + off)}\n${cue.text}\n`);
    }
  }
  fs.writeFileSync(path.join(folder, 'subtitles.srt'), srt.join('\n'));
  // The source's background track is as long as the source: the long film's is derived at import.
  const { background: _background, ...film } = JSON.parse(
    fs.readFileSync(path.join(SOURCE, 'film.json'), 'utf8'),
  );
  const lines = Array.from({ length: copies }, (_, c) =>
    film.lines.map((l: { index: number }) => ({ ...l, index: l.index + c * cues.length })),
  ).flat();
  fs.writeFileSync(
    path.join(folder, 'film.json'),
    JSON.stringify({ ...film, id: 'bench-long-take', titleEn: 'Bench long take', lines }, null, 2),
  );
  fs.copyFileSync(path.join(SOURCE, film.poster), path.join(folder, film.poster));
  return {
    folder,
    copies,
    stepSeconds: step / 1000,
    remove: () => fs.rmSync(folder, { recursive: true, force: true }),
  };
}
