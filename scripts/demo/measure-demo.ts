/**
 * `npx tsx scripts/demo/measure-demo.ts`: prints the figures behind the demo-content test for
 * each built film and the learner take: sizes, durations, speech level inside the subtitle
 * windows, level of the gaps between them. Reads only committed files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TARGET_SAMPLE_RATE as RATE } from '../../src/audio/constants';
import { filmManifest } from '../../server/films/manifest';
import { parseSubtitles } from '../../server/films/subtitle-parse';
import { decodeAudio } from './decode-media';
import { measureWindows } from './speech-energy';
import { readWav } from './wav-io';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const filmsDir = path.join(root, 'demo', 'films');
const options = { guardMs: 150, edgeMs: 100 };
const f1 = (n: number) => n.toFixed(1);
const min = (xs: number[]) => Math.min(...xs);
const max = (xs: number[]) => Math.max(...xs);

function folderBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

let total = 0;
console.log(
  'film                  lines  dur s   KiB  speech dB (min..max)  edges min  gaps max dB  margin dB',
);
for (const id of fs.readdirSync(filmsDir).sort()) {
  const dir = path.join(filmsDir, id);
  if (!fs.statSync(dir).isDirectory()) continue;
  const film = filmManifest.parse(JSON.parse(fs.readFileSync(path.join(dir, 'film.json'), 'utf8')));
  const cues = parseSubtitles(fs.readFileSync(path.join(dir, film.subtitles), 'utf8'), 'srt');
  const audio = decodeAudio(path.join(dir, film.video), RATE);
  const m = measureWindows(audio, RATE, cues, options);
  const bytes = folderBytes(dir);
  total += bytes;
  console.log(
    [
      id.padEnd(21),
      String(cues.length).padStart(5),
      (audio.length / RATE).toFixed(2).padStart(6),
      String(Math.round(bytes / 1024)).padStart(5),
      `${f1(min(m.speechDb))}..${f1(max(m.speechDb))}`.padStart(21),
      f1(min([...m.onsetDb, ...m.offsetDb])).padStart(10),
      f1(max(m.gapDb)).padStart(12),
      f1(min(m.speechDb) - max(m.gapDb)).padStart(10),
    ].join(' '),
  );
}
console.log(`all films: ${Math.round(total / 1024)} KiB`);

const fixtures = JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/emodb/fixtures.json'), 'utf8'));
const takeFile = path.resolve(root, 'tests/fixtures/emodb', fixtures.micTake.file);
const take = readWav(fs.readFileSync(takeFile), takeFile);
const windows = fixtures.micTake.lines.map((l: { speechStartMs: number; speechEndMs: number }) => ({
  startMs: l.speechStartMs,
  endMs: l.speechEndMs,
}));
const t = measureWindows(take.samples, take.sampleRate, windows, options);
const offsets = fixtures.micTake.lines.map((l: { speechStartMs: number; cueStartMs: number }) =>
  Math.abs(l.speechStartMs - l.cueStartMs),
);
console.log(
  `learner take ${path.basename(takeFile)}: speech ${f1(min(t.speechDb))}..${f1(max(t.speechDb))} dB, ` +
    `gaps max ${f1(max(t.gapDb))} dB, largest onset offset from its cue ${max(offsets)} ms`,
);
const fixtureBytes = ['emodb', 'mic']
  .map((sub) => folderBytes(path.join(root, 'tests/fixtures', sub)))
  .reduce((a, b) => a + b, 0);
console.log(`fixtures: ${Math.round(fixtureBytes / 1024)} KiB`);
