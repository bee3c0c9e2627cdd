/**
 * Encodes a scene track into the film's video (H.264 + AAC MP4) and poster (JPEG).
 * The picture is generated: a dark backdrop with the title, the cast, the name of whoever is
 * speaking, and an animated waveform of the track. Subtitles are NOT burnt in: the player shows
 * the srt, so the learner can turn them off.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BITEXACT, runFfmpeg } from './ffmpeg';
import type { DemoFonts } from './fonts';
import type { Cue } from './scene-timeline';

export const VIDEO_WIDTH = 640;
export const VIDEO_HEIGHT = 360;
export const VIDEO_FPS = 15;
export const POSTER_WIDTH = 480;
export const POSTER_HEIGHT = 270;

const ROLE_COLORS = ['0xf2b35e', '0x7cc6e8', '0xb99cf0', '0x8fd694'];

export interface RenderInput {
  workDir: string;
  trackWav: string;
  durationMs: number;
  title: string;
  titleEn: string;
  roleNames: string[];
  /** The source credit in the corner, ASCII. */
  credit: string;
  /** x264 constant rate factor: higher is smaller and coarser. */
  crf: number;
  cues: (Cue & { speaker: string })[];
  fonts: DemoFonts;
  videoOut: string;
  posterOut: string;
}

/** drawtext reads its text from a file so no filtergraph escaping of user text is needed. */
function textFile(workDir: string, name: string, text: string): string {
  const file = path.join(workDir, `${name}.txt`);
  writeFileSync(file, text);
  return file;
}

function drawText(font: string, file: string, options: string): string {
  return `drawtext=fontfile=${font}:textfile=${file}:expansion=none:${options}`;
}

/** Role names in Chinese characters need the CJK font; the Latin fonts have no glyphs for them. */
function fontFor(text: string, latin: string, fonts: DemoFonts): string {
  if (!/[\u3000-\u9fff\uff00-\uffef]/u.test(text)) return latin;
  if (!fonts.cjk)
    throw new Error(`"${text}" needs a CJK font: install fonts-wqy-microhei or set DEMO_FONT_CJK`);
  return fonts.cjk;
}

export function buildFilterGraph(input: RenderInput): string {
  const { workDir, fonts } = input;
  const seconds = (input.durationMs / 1000).toFixed(3);
  const center = 'x=(w-text_w)/2';
  const draws: string[] = ['drawbox=x=0:y=0:w=iw:h=4:color=0x7cc6e8:t=fill'];
  if (fonts.cjk) {
    draws.push(
      drawText(
        fonts.cjk,
        textFile(workDir, 'title', input.title),
        `fontsize=34:fontcolor=white:${center}:y=30`,
      ),
    );
    draws.push(
      drawText(
        fonts.latin,
        textFile(workDir, 'title-en', input.titleEn),
        `fontsize=18:fontcolor=0xaeb8c6:${center}:y=80`,
      ),
    );
  } else {
    draws.push(
      drawText(
        fonts.latinBold,
        textFile(workDir, 'title-en', input.titleEn),
        `fontsize=30:fontcolor=white:${center}:y=40`,
      ),
    );
  }
  const cast = input.roleNames.join('  ·  ');
  draws.push(
    drawText(
      fontFor(cast, fonts.latin, fonts),
      textFile(workDir, 'cast', cast),
      `fontsize=15:fontcolor=0x7d8896:${center}:y=112`,
    ),
  );
  input.cues.forEach((cue, i) => {
    const color = ROLE_COLORS[input.roleNames.indexOf(cue.speaker) % ROLE_COLORS.length];
    const from = Math.max(0, cue.startMs - 150) / 1000;
    const to = (cue.endMs + 250) / 1000;
    draws.push(
      drawText(
        fontFor(cue.speaker, fonts.latinBold, fonts),
        textFile(workDir, `speaker-${i + 1}`, cue.speaker),
        `fontsize=26:fontcolor=${color}:${center}:y=296:enable='between(t,${from.toFixed(3)},${to.toFixed(3)})'`,
      ),
    );
  });
  draws.push(
    drawText(
      fonts.latin,
      textFile(workDir, 'credit', input.credit),
      'fontsize=11:fontcolor=0x5a6472:x=w-text_w-12:y=h-20',
    ),
  );
  return [
    `color=c=0x141a24:s=${VIDEO_WIDTH}x${VIDEO_HEIGHT}:r=${VIDEO_FPS}:d=${seconds}[bg]`,
    `[0:a]showwaves=s=560x110:mode=cline:rate=${VIDEO_FPS}:colors=0x7cc6e8:scale=sqrt[waves]`,
    '[bg][waves]overlay=40:160:shortest=1[base]',
    `[base]${draws.join(',')}[v]`,
  ].join(';');
}

export function renderFilm(input: RenderInput): void {
  runFfmpeg([
    '-y',
    '-i',
    input.trackWav,
    '-filter_complex',
    buildFilterGraph(input),
    '-map',
    '[v]',
    '-map',
    '0:a',
    '-c:v',
    'libx264',
    '-preset',
    'slow',
    '-tune',
    'animation',
    '-crf',
    String(input.crf),
    '-pix_fmt',
    'yuv420p',
    '-profile:v',
    'main',
    '-g',
    String(VIDEO_FPS * 5),
    // One thread: repeatable output, and the build shares a small machine.
    '-threads',
    '1',
    '-c:a',
    'aac',
    '-b:a',
    '56k',
    '-ar',
    '44100',
    '-ac',
    '1',
    '-movflags',
    '+faststart',
    ...BITEXACT,
    '-t',
    (input.durationMs / 1000).toFixed(3),
    input.videoOut,
  ]);
  // Poster: the frame in the middle of the first line, while the waveform is moving.
  const first = input.cues[0];
  const at = ((first.startMs + first.endMs) / 2000).toFixed(3);
  runFfmpeg([
    '-y',
    '-ss',
    at,
    '-i',
    input.videoOut,
    '-frames:v',
    '1',
    '-vf',
    `scale=${POSTER_WIDTH}:${POSTER_HEIGHT}`,
    '-q:v',
    '5',
    ...BITEXACT,
    input.posterOut,
  ]);
}
