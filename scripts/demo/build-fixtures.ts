/**
 * Test fixtures: a DIFFERENT speaker (the "learner", in none of the films) saying the fixture
 * film's sentences in the matching emotion and in a mismatching one, at 16 kHz, plus a whole
 * "learner's scene take" on the film's own timeline for Chromium's fake microphone.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { type TakeLabel, labelOf, loadTake } from './emodb-dataset';
import { resampleWav } from './ffmpeg';
import { addRoomTone } from './room-tone';
import { type Cue, placeClips } from './scene-timeline';
import type { SceneDefinition } from './scenes/scene-types';
import { SENTENCES } from './sentences';
import { type SpeechClip, cutSpeechClip } from './trim-speech';
import { readWav, writeWav } from './wav-io';

export interface FixtureTake {
  take: string;
  /** The fixture film's line (srt cue number) this take dubs. */
  line: number;
  relation: 'match' | 'mismatch';
}

/** Chosen by hand from complete takes (truncated_to_2s = 0) of speaker 15. */
export const FIXTURE_TAKES: readonly FixtureTake[] = [
  { take: '15a01Wa', line: 1, relation: 'match' },
  { take: '15a01Nb', line: 2, relation: 'match' },
  { take: '15a02Wd', line: 3, relation: 'match' },
  { take: '15a02La', line: 4, relation: 'match' },
  { take: '15a04Wb', line: 5, relation: 'match' },
  { take: '15a07Ac', line: 6, relation: 'match' },
  { take: '15a07Fb', line: 7, relation: 'match' },
  { take: '15a01La', line: 1, relation: 'mismatch' },
  { take: '15a02Wb', line: 4, relation: 'mismatch' },
  { take: '15a07Ld', line: 6, relation: 'mismatch' },
];

/** Shortest silence the take keeps between two dubbed lines, so windows never run into each other. */
const MIN_TAKE_GAP_MS = 200;

interface FilmLine {
  index: number;
  label: TakeLabel;
}

export interface FixtureInput {
  repoRoot: string;
  emodbDir: string;
  labels: Map<string, TakeLabel>;
  learner: string;
  scene: SceneDefinition;
  lines: FilmLine[];
  cues: Cue[];
}

const ms = (samples: number, rate: number) => Math.round((samples / rate) * 1000);

export function buildFixtures(input: FixtureInput): { files: string[]; bytes: number } {
  const { repoRoot, emodbDir, labels, learner, scene, lines, cues } = input;
  const filmSpeakers = new Set(lines.map((l) => l.label.speaker));
  if (filmSpeakers.has(learner)) throw new Error(`fixture speaker ${learner} also speaks in ${scene.id}`);
  const emodbOut = path.join(repoRoot, 'tests', 'fixtures', 'emodb');
  const micOut = path.join(repoRoot, 'tests', 'fixtures', 'mic');
  rmSync(emodbOut, { recursive: true, force: true });
  rmSync(micOut, { recursive: true, force: true });
  mkdirSync(emodbOut, { recursive: true });
  mkdirSync(micOut, { recursive: true });

  const written: string[] = [];
  let bytes = 0;
  const write = (file: string, data: Uint8Array) => {
    writeFileSync(file, data);
    written.push(path.relative(repoRoot, file));
    bytes += data.byteLength;
  };

  const takes = FIXTURE_TAKES.map((f) => {
    const label = labelOf(labels, f.take);
    const line = lines.find((l) => l.index === f.line);
    if (!line) throw new Error(`fixture ${f.take}: ${scene.id} has no line ${f.line}`);
    if (label.speaker !== learner) throw new Error(`fixture ${f.take} is not by speaker ${learner}`);
    if (label.text !== line.label.text)
      throw new Error(`fixture ${f.take} says ${label.text}, line ${f.line} says ${line.label.text}`);
    const matches = label.emotion === line.label.emotion;
    if (matches !== (f.relation === 'match')) {
      throw new Error(
        `fixture ${f.take} (${label.emotion}) is not a ${f.relation} for line ${f.line} (${line.label.emotion})`,
      );
    }
    const clip = cutSpeechClip(loadTake(emodbDir, f.take));
    const wav16 = new Uint8Array(resampleWav(writeWav(clip), TARGET_SAMPLE_RATE));
    write(path.join(emodbOut, `${f.take}.wav`), wav16);
    const frames = readWav(wav16).samples.length;
    return {
      file: `${f.take}.wav`,
      speaker: label.speaker,
      sex: label.sex,
      text: label.text,
      german: SENTENCES[label.text].german,
      emotion: label.emotion,
      matchesLine: f.line,
      lineEmotion: line.label.emotion,
      relation: f.relation,
      durationMs: ms(frames, TARGET_SAMPLE_RATE),
      speechStartMs: ms(clip.speechStart, clip.sampleRate),
      speechEndMs: ms(clip.speechEnd, clip.sampleRate),
      humanRecognitionPct: label.recognitionPct,
    };
  });

  // The learner's scene take: the matching takes, each centred in its line's subtitle window.
  const matching = lines.map((line) => {
    const f = FIXTURE_TAKES.find((t) => t.line === line.index && t.relation === 'match');
    if (!f) throw new Error(`no matching fixture take for ${scene.id} line ${line.index}`);
    return { take: f.take, clip: cutSpeechClip(loadTake(emodbDir, f.take)) };
  });
  const clips: SpeechClip[] = matching.map((m) => m.clip);
  const timeline = placeClips(clips, cues, clips[0].sampleRate, 'center');
  // A quiet room, like a real microphone: gaps are not digital zeros.
  addRoomTone(timeline.samples, timeline.sampleRate, 15);
  const placed = cues.map((cue, i) => {
    const speechMs = ms(clips[i].speechEnd - clips[i].speechStart, clips[i].sampleRate);
    const startMs = cue.startMs + Math.round((cue.endMs - cue.startMs - speechMs) / 2);
    return { index: cue.index, take: matching[i].take, startMs, endMs: startMs + speechMs };
  });
  placed.forEach((p, i) => {
    const next = placed[i + 1];
    if (next && next.startMs - p.endMs < MIN_TAKE_GAP_MS) {
      throw new Error(
        `learner take: lines ${p.index} and ${next.index} are closer than ${MIN_TAKE_GAP_MS} ms`,
      );
    }
  });
  const micFile = `${scene.id}-take.wav`;
  const micWav = new Uint8Array(resampleWav(writeWav(timeline), TARGET_SAMPLE_RATE));
  write(path.join(micOut, micFile), micWav);

  const manifest = {
    about:
      'EmoDB takes (Burkhardt et al. 2005, CC0) by a speaker who is not in the film, dubbing its lines. ' +
      'Built by npm run demo:build; see docs/demo-content.md.',
    film: scene.id,
    speaker: learner,
    sampleRate: TARGET_SAMPLE_RATE,
    takes,
    micTake: {
      file: `../mic/${micFile}`,
      sampleRate: TARGET_SAMPLE_RATE,
      durationMs: ms(readWav(micWav).samples.length, TARGET_SAMPLE_RATE),
      note: "Same timeline as the film's srt: each line's speech is centred in its subtitle window, silence between.",
      lines: placed.map((p) => ({
        index: p.index,
        take: p.take,
        cueStartMs: cues[p.index - 1].startMs,
        cueEndMs: cues[p.index - 1].endMs,
        speechStartMs: p.startMs,
        speechEndMs: p.endMs,
      })),
    },
  };
  write(
    path.join(emodbOut, 'fixtures.json'),
    new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
  );
  return { files: written, bytes };
}
