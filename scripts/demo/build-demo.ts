/**
 * `npm run demo:build`: composes the demo films in demo/films/<slug>/ (film.json, video.mp4,
 * poster.jpg, subtitles.srt, background.m4a) and the test fixtures in tests/fixtures/ from the local EmoDB copy.
 * Deterministic: every take is listed in scenes/, every gap is fixed; only the encoders vary.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBackground } from './background-track';
import { buildFixtures } from './build-fixtures';
import { type TakeLabel, labelOf, loadTake, locateEmodb, readLabels } from './emodb-dataset';
import { type FilmManifest, filmManifest } from '../../server/films/manifest';
import { findFonts } from './fonts';
import { renderFilm } from './render-film';
import { addRoomTone } from './room-tone';
import { FIXTURE_FILM_ID, LEARNER_SPEAKER, SCENES } from './scenes';
import type { SceneDefinition } from './scenes/scene-types';
import { normalizePeak, placeClips, planCues } from './scene-timeline';
import { SENTENCES } from './sentences';
import { formatSrt } from './srt';
import { cutSpeechClip } from './trim-speech';
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

function main(): void {
  const emodbDir = locateEmodb(repoRoot);
  const labels = readLabels(emodbDir);
  const fonts = findFonts();
  if (!fonts.cjk) console.warn('demo:build: no CJK font found; the backdrop shows only the English title');
  // Check every scene against labels.csv before any encoding starts.
  const sceneLabels = SCENES.map((scene) => checkScene(scene, labels));
  const workRoot = mkdtempSync(path.join(os.tmpdir(), 'demo-build-'));
  rmSync(stagingDir, { recursive: true, force: true });
  mkdirSync(stagingDir, { recursive: true });
  let totalBytes = 0;
  try {
    SCENES.forEach((scene, filmIndex) => {
      const lineLabels = sceneLabels[filmIndex];
      const clips = scene.lines.map((line) => cutSpeechClip(loadTake(emodbDir, line.take)));
      const cues = planCues(clips, filmIndex);
      const timeline = placeClips(clips, cues, clips[0].sampleRate);
      normalizePeak(timeline.samples);
      addRoomTone(timeline.samples, timeline.sampleRate, filmIndex + 1);

      const workDir = path.join(workRoot, scene.id);
      const outDir = path.join(stagingDir, scene.id);
      mkdirSync(workDir, { recursive: true });
      mkdirSync(outDir, { recursive: true });
      const trackWav = path.join(workDir, 'track.wav');
      writeFileSync(trackWav, writeWav(timeline));

      const manifest: FilmManifest = filmManifest.parse({
        id: scene.id,
        title: scene.title,
        titleEn: scene.titleEn,
        synopsis: scene.synopsis,
        parts: scene.parts,
        roles: scene.roles.map((r) => ({ name: r.name, description: r.description })),
        video: 'video.mp4',
        poster: 'poster.jpg',
        subtitles: 'subtitles.srt',
        background: 'background.m4a',
        lines: scene.lines.map((line, i) => ({
          index: i + 1,
          speaker: line.speaker,
          translation: line.translation ?? SENTENCES[lineLabels[i].text].translation,
          targetEmotion: lineLabels[i].emotion,
        })),
        questions: scene.questions,
      });
      const srt = formatSrt(cues.map((cue, i) => ({ ...cue, text: SENTENCES[lineLabels[i].text].german })));
      writeFileSync(path.join(outDir, 'film.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      writeFileSync(path.join(outDir, 'subtitles.srt'), srt);
      renderFilm({
        workDir,
        trackWav,
        durationMs: timeline.durationMs,
        title: scene.title,
        titleEn: scene.titleEn,
        roleNames: scene.roles.map((r) => r.name),
        cues: cues.map((cue, i) => ({ ...cue, speaker: scene.lines[i].speaker })),
        fonts,
        videoOut: path.join(outDir, 'video.mp4'),
        posterOut: path.join(outDir, 'poster.jpg'),
      });
      renderBackground(timeline, filmIndex + 1, workDir, path.join(outDir, 'background.m4a'));
      const bytes = ['film.json', 'subtitles.srt', 'video.mp4', 'poster.jpg', 'background.m4a']
        .map((f) => statSync(path.join(outDir, f)).size)
        .reduce((a, b) => a + b, 0);
      totalBytes += bytes;
      console.log(
        `${scene.id}: ${cues.length} lines, ${(timeline.durationMs / 1000).toFixed(2)} s, ${(bytes / 1024).toFixed(0)} KiB`,
      );

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
    rmSync(filmsDir, { recursive: true, force: true });
    renameSync(stagingDir, filmsDir);
    writeSourceNote(repoRoot, path.join(repoRoot, 'demo', 'SOURCE.md'), SCENES, labels, LEARNER_SPEAKER);
    console.log(`demo films: ${SCENES.length} films, ${(totalBytes / 1024).toFixed(0)} KiB in all`);
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
