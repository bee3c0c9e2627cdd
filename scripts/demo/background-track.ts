/**
 * The demo film's voice-free background track (docs/demo-content.md): the same seeded room tone the
 * film's track carries under its lines, without the lines, encoded like the film's own audio so the
 * two line up sample for sample.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BITEXACT, runFfmpeg } from './ffmpeg';
import { addRoomTone } from './room-tone';
import type { Timeline } from './scene-timeline';
import { writeWav } from './wav-io';

export function renderBackground(timeline: Timeline, seed: number, workDir: string, out: string): void {
  const samples = new Float32Array(timeline.samples.length);
  addRoomTone(samples, timeline.sampleRate, seed);
  const wav = path.join(workDir, 'background.wav');
  writeFileSync(wav, writeWav({ sampleRate: timeline.sampleRate, samples }));
  runFfmpeg([
    '-y',
    '-i',
    wav,
    '-c:a',
    'aac',
    // Room tone at −60 dBFS needs few bits; keeps four films' backgrounds near 300 KB.
    '-b:a',
    '32k',
    '-ar',
    '44100',
    '-ac',
    '1',
    '-threads',
    '1',
    '-movflags',
    '+faststart',
    ...BITEXACT,
    '-t',
    (timeline.durationMs / 1000).toFixed(3),
    out,
  ]);
}
