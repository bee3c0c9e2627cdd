/**
 * `npm run demo:build`: composes the demo films in demo/films/<slug>/ (film.json, video.mp4,
 * poster.jpg, subtitles.srt, background.m4a) and the test fixtures in tests/fixtures/: the German
 * films and the fixtures from the local EmoDB copy, the English and Mandarin films from the local
 * line-check set (docs/demo-content.md).
 * Deterministic: every take is listed in scenes/, every gap is fixed; only the encoders vary.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBackground } from './background-track';
import { buildFixtures } from './build-fixtures';
import { type TakeLabel, labelOf, loadTake, locateEmodb, readLabels } from './emodb-dataset';
import { type ManifestQuestion, filmManifest } from '../../server/films/manifest';
import type { Emotion, Localized, Part } from '../../src/api/contract';
import { type DemoFonts, findFonts } from './fonts';
import { loadClip, locateLineCheck, readTranscripts } from './line-check-dataset';
import { checkNarrationScene } from './narration';
import { renderFilm } from './render-film';
import { addRoomTone } from './room-tone';
import { FIXTURE_FILM_ID, LEARNER_SPEAKER, NARRATION_SCENES, SCENES } from './scenes';
import type { NarrationScene, SceneDefinition } from './scenes/scene-types';
import { type Cue, normalizePeak, placeClips, planCues } from './scene-timeline';
import { SENTENCES } from './sentences';
import { formatSrt } from './srt';
import { type SpeechClip, cutSpeechClip } from './trim-speech';
import { writeWav } from './wav-io';
import { writeSourceNote } from './write-source-note';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const filmsDir = path.join(repoRoot, 'demo', 'films');
/** Films are built here and swapped in at the end, so a failed build leaves the committed films alone. */
const stagingDir = path.join(repoRoot, 'demo', '.films-build');

function checkScene(scene: SceneDefinition, labels: Map<string, TakeLabel>): TakeLabel[] {
  const roles = new Map(scene.roles.map((r) => [r.name, r]));
  return scene.lines.map((line, i) => {
    const label = labelOf(labels, line.take);
    const role = roles.get(line.speaker);
    if (!role) throw new Error(`${scene.id} line ${i + 1}: speaker "${line.speaker}" is not a role`);
    if (role.emodbSpeaker !== label.speaker) {
      throw new Error(
        `${scene.id} line ${i + 1}: ${line.take} is speaker ${label.speaker}, role ${role.name} is ${role.emodbSpeaker}`,
      );
    }
    if (!SENTENCES[label.text]) throw new Error(`${scene.id} line ${i + 1}: unknown text code ${label.text}`);
    return label;
  });
}

/** What the builder needs of one film, whichever dataset its voices come from. */
interface FilmBuild {
  id: string;
  title: string;
  titleEn: string;
  /** BCP 47 primary tag of the spoken lines (film.json `language`). */
  language: string;
  synopsis: Localized;
  parts: Part[];
  roles: { name: string; description: Localized }[];
  lines: { speaker: string; subtitle: string; translation: Localized; targetEmotion: Emotion | null }[];
  clips: SpeechClip[];
  questions: ManifestQuestion[];
  credit: string;
  crf: number;
}

const EMODB_CREDIT = 'Voices: EmoDB (Burkhardt et al. 2005), CC0';

/**
 * Composes one film into stagingDir/<id>. `filmIndex` seeds the gaps and the room tone, so each
 * film keeps its own timeline whatever is built around it.
 */
function buildFilm(
  film: FilmBuild,
  filmIndex: number,
  workRoot: string,
  fonts: DemoFonts,
): { cues: Cue[]; bytes: number } {
  const cues = planCues(film.clips, filmIndex);
  const timeline = placeClips(film.clips, cues, film.clips[0].sampleRate);
  normalizePeak(timeline.samples);
  addRoomTone(timeline.samples, timeline.sampleRate, filmIndex + 1);

  const workDir = path.join(workRoot, film.id);
  const outDir = path.join(stagingDir, film.id);
  mkdirSync(workDir, { recursive: true });
  mkdirSync(outDir, { recursive: true });
  const trackWav = path.join(workDir, 'track.wav');
  writeFileSync(trackWav, writeWav(timeline));

  if (!/^[a-z]{2,3}$/.test(film.language))
    throw new Error(`${film.id}: language "${film.language}" is not a BCP 47 primary tag`);
  const { id, title, titleEn, language, ...rest } = filmManifest.parse({
    id: film.id,
    title: film.title,
    titleEn: film.titleEn,
    language: film.language,
    synopsis: film.synopsis,
    parts: film.parts,
    roles: film.roles,
    video: 'video.mp4',
    poster: 'poster.jpg',
    subtitles: 'subtitles.srt',
    background: 'background.m4a',
    lines: film.lines.map((line, i) => ({
      index: i + 1,
      speaker: line.speaker,
      translation: line.translation,
      targetEmotion: line.targetEmotion,
    })),
    questions: film.questions,
  });
  // `language` is written beside the titles, as in the committed film.json files.
  const manifest = { id, title, titleEn, language, ...rest };
  const srt = formatSrt(cues.map((cue, i) => ({ ...cue, text: film.lines[i].subtitle })));
  writeFileSync(path.join(outDir, 'film.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'subtitles.srt'), srt);
  renderFilm({
    workDir,
    trackWav,
    durationMs: timeline.durationMs,
    title: film.title,
    titleEn: film.titleEn,
    roleNames: film.roles.map((r) => r.name),
    credit: film.credit,
    crf: film.crf,
    cues: cues.map((cue, i) => ({ ...cue, speaker: film.lines[i].speaker })),
    fonts,
    videoOut: path.join(outDir, 'video.mp4'),
    posterOut: path.join(outDir, 'poster.jpg'),
  });
  renderBackground(timeline, filmIndex + 1, workDir, path.join(outDir, 'background.m4a'));
  const bytes = ['film.json', 'subtitles.srt', 'video.mp4', 'poster.jpg', 'background.m4a']
    .map((f) => statSync(path.join(outDir, f)).size)
    .reduce((a, b) => a + b, 0);
  console.log(
    `${film.id}: ${cues.length} lines, ${(timeline.durationMs / 1000).toFixed(2)} s, ${(bytes / 1024).toFixed(0)} KiB`,
  );
  return { cues, bytes };
}

function emodbFilm(scene: SceneDefinition, labels: TakeLabel[], emodbDir: string): FilmBuild {
  return {
    id: scene.id,
    title: scene.title,
    titleEn: scene.titleEn,
    language: 'de',
    synopsis: scene.synopsis,
    parts: scene.parts,
    roles: scene.roles.map((r) => ({ name: r.name, description: r.description })),
    lines: scene.lines.map((line, i) => ({
      speaker: line.speaker,
      subtitle: SENTENCES[labels[i].text].german,
      translation: line.translation ?? SENTENCES[labels[i].text].translation,
      targetEmotion: labels[i].emotion,
    })),
    clips: scene.lines.map((line) => cutSpeechClip(loadTake(emodbDir, line.take))),
    questions: scene.questions,
    credit: EMODB_CREDIT,
    crf: 30,
  };
}

/** Read speech carries no emotion label, so its lines have no target emotion (the actor's reading stands in). */
function narrationFilm(scene: NarrationScene, lineCheckDir: string): FilmBuild {
  return {
    id: scene.id,
    title: scene.title,
    titleEn: scene.titleEn,
    language: scene.language,
    synopsis: scene.synopsis,
    parts: scene.parts,
    roles: scene.roles.map((r) => ({ name: r.name, description: r.description })),
    lines: scene.lines.map((line) => ({
      speaker: line.speaker,
      subtitle: line.text,
      translation: line.translation,
      targetEmotion: null,
    })),
    clips: scene.lines.map((line) => cutSpeechClip(loadClip(lineCheckDir, line.file))),
    questions: scene.questions,
    credit: scene.credit,
    // Read speech runs on with few pauses, so the waveform hardly rests and costs more bits than the
    // German dialogues; at 34 these films stay near the German films' ~30 KB per second.
    crf: 34,
  };
}

function main(): void {
  const emodbDir = locateEmodb(repoRoot);
  const labels = readLabels(emodbDir);
  const lineCheckDir = locateLineCheck(repoRoot);
  const transcripts = readTranscripts(lineCheckDir);
  const fonts = findFonts();
  if (!fonts.cjk) console.warn('demo:build: no CJK font found; the backdrop shows only the English title');
  // Check every scene against labels.csv and transcripts.tsv before any encoding starts.
  const sceneLabels = SCENES.map((scene) => checkScene(scene, labels));
  const narrationTranscripts = NARRATION_SCENES.map((scene) => checkNarrationScene(scene, transcripts));
  const workRoot = mkdtempSync(path.join(os.tmpdir(), 'demo-build-'));
  rmSync(stagingDir, { recursive: true, force: true });
  mkdirSync(stagingDir, { recursive: true });
  let totalBytes = 0;
  try {
    SCENES.forEach((scene, filmIndex) => {
      const lineLabels = sceneLabels[filmIndex];
      const { cues, bytes } = buildFilm(emodbFilm(scene, lineLabels, emodbDir), filmIndex, workRoot, fonts);
      totalBytes += bytes;
      if (scene.id === FIXTURE_FILM_ID) {
        const fixtures = buildFixtures({
          repoRoot,
          emodbDir,
          labels,
          learner: LEARNER_SPEAKER,
          scene,
          lines: lineLabels.map((label, i) => ({ index: i + 1, label })),
          cues,
        });
        console.log(`fixtures: ${fixtures.files.length} files, ${(fixtures.bytes / 1024).toFixed(0)} KiB`);
      }
    });
    NARRATION_SCENES.forEach((scene, i) => {
      totalBytes += buildFilm(narrationFilm(scene, lineCheckDir), SCENES.length + i, workRoot, fonts).bytes;
    });
    rmSync(filmsDir, { recursive: true, force: true });
    renameSync(stagingDir, filmsDir);
    writeSourceNote(repoRoot, path.join(repoRoot, 'demo', 'SOURCE.md'), {
      scenes: SCENES,
      labels,
      learner: LEARNER_SPEAKER,
      narrations: NARRATION_SCENES,
      transcripts: narrationTranscripts,
    });
    const films = SCENES.length + NARRATION_SCENES.length;
    console.log(`demo films: ${films} films, ${(totalBytes / 1024).toFixed(0)} KiB in all`);
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
    rmSync(stagingDir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  console.error(`demo:build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
