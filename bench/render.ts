/**
 * `npm run bench:render [-- 20 180]`: CPU seconds of the dubbed-video render (server/renders/dub-render.ts,
 * the app's own ffmpeg arguments) per clip length, beside two floors run on the same clip in the same
 * run: the simplest render of the same job (every take placed with adelay and mixed with the film's
 * audio by one amix, the picture copied) and the least any render does (the picture copied, the film's
 * audio encoded to AAC). Synthetic clips are made with ffmpeg on the fly: H.264 picture, noise for the
 * original audio and the background, a line every 3 s (2 s cue, windows ± the take margin), a 16 kHz
 * take of the window's length per dubbed line. CPU is the ffmpeg child's user + system time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../src/audio/constants';
import { encodeWav16 } from '../src/audio/dsp/wav';
import { BACKGROUND_RATE } from '../server/films/background';
import { FFMPEG_PATH } from '../server/films/ffmpeg';
import { AAC_OUT, type DubRenderInput, dubRenderArgs, type RenderSpan } from '../server/renders/dub-render';

const LENGTHS = process.argv.slice(2).map(Number).filter(Boolean);
const CLIPS_S = LENGTHS.length ? LENGTHS : [20, 180, 600];
const MARGIN_MS = DEFAULT_WINDOW_MARGIN_SECONDS * 1000;
const LINE_EVERY_MS = 3000;
const CUE_MS = 2000;
const mono = `aresample=${BACKGROUND_RATE},aformat=sample_fmts=fltp:channel_layouts=mono`;

/** Runs ffmpeg under bash and returns its CPU seconds (user + system, from the shell's `times`). */
function cpuSeconds(args: string[]): number {
  const err = path.join(dir, 'ffmpeg.err');
  const script = '"$@" >/dev/null 2>"$ERR"; s=$?; times; exit $s';
  const r = spawnSync('bash', ['-c', script, 'sh', FFMPEG_PATH, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ERR: err },
  });
  if (r.status !== 0)
    throw new Error(`ffmpeg failed: ${fs.readFileSync(err, 'utf8').trim().split('\n').pop()}`);
  // `times`: the shell's own user/system, then its children's.
  const children = r.stdout.trim().split('\n').pop() ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.reduce((a, b) => a + b, 0);
}

function ffmpeg(args: string[]): void {
  const r = spawnSync(FFMPEG_PATH, ['-hide_banner', '-v', 'error', '-y', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.trim().split('\n').pop()}`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));
try {
  const windowMs = CUE_MS + 2 * MARGIN_MS;
  const take = path.join(dir, 'take.wav');
  const n = Math.round((windowMs / 1000) * 16_000);
  const samples = new Float32Array(n).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 180 * i) / 16_000));
  fs.writeFileSync(take, Buffer.from(encodeWav16(samples, 16_000)));

  const rows: string[][] = [];
  for (const seconds of CLIPS_S) {
    const video = path.join(dir, `clip-${seconds}.mp4`);
    const background = path.join(dir, `background-${seconds}.m4a`);
    ffmpeg([
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=10:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=pink:r=44100:a=0.2`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-c:a', 'aac', '-b:a', '96k', video],
    ]);
    ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=brown:r=44100:a=0.1`, '-c:a', 'aac', background]);
    const durationMs = seconds * 1000;
    const cues: { startMs: number; endMs: number }[] = [];
    for (let s = 500; s + CUE_MS <= durationMs; s += LINE_EVERY_MS)
      cues.push({ startMs: s, endMs: s + CUE_MS });
    const span = (c: (typeof cues)[number]): RenderSpan => ({
      fromMs: Math.max(0, c.startMs - MARGIN_MS),
      toMs: c.endMs + MARGIN_MS,
    });
    const takeOf = (c: (typeof cues)[number]) => ({
      file: take,
      clipStartMs: c.startMs - MARGIN_MS,
      durationMs: windowMs,
    });
    const out = path.join(dir, 'out.mp4');
    const render = (dubbed: typeof cues, actor: typeof cues): DubRenderInput => ({
      video,
      background,
      durationMs,
      actor: actor.map(span),
      dubbed: dubbed.map(span),
      takes: dubbed.map(takeOf),
      out,
    });
    const middle = Math.floor(cues.length / 2);
    const allDubbed = cpuSeconds(dubRenderArgs(render(cues, []), true));
    const oneDubbed = cpuSeconds(
      dubRenderArgs(
        render(
          [cues[middle]],
          cues.filter((_, k) => k !== middle),
        ),
        true,
      ),
    );
    const inputs = cues.flatMap(() => ['-i', take]);
    const placed = cues.map((c, k) => `[${k + 1}:a]${mono},adelay=${c.startMs - MARGIN_MS}[t${k}]`);
    const labels = ['[o]', ...cues.map((_, k) => `[t${k}]`)].join('');
    const floorMix = cpuSeconds([
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', video, ...inputs],
      '-filter_complex',
      [
        `[0:a]${mono}[o]`,
        ...placed,
        `${labels}amix=inputs=${cues.length + 1}:duration=first,volume=${cues.length + 1}[a]`,
      ].join(';'),
      ...[
        '-map',
        '0:v:0',
        '-map',
        '[a]',
        '-c:v',
        'copy',
        ...AAC_OUT,
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        out,
      ],
    ]);
    const floorCopy = cpuSeconds([
      ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', video],
      ...[
        '-map',
        '0:v:0',
        '-map',
        '0:a:0',
        '-c:v',
        'copy',
        ...AAC_OUT,
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        out,
      ],
    ]);
    const row = [
      `${seconds} s (${cues.length} lines)`,
      allDubbed.toFixed(2),
      oneDubbed.toFixed(2),
      floorMix.toFixed(2),
      floorCopy.toFixed(2),
      `${(allDubbed / floorMix).toFixed(2)} / ${(oneDubbed / floorMix).toFixed(2)}`,
      `${(allDubbed / floorCopy).toFixed(2)} / ${(oneDubbed / floorCopy).toFixed(2)}`,
      os.loadavg()[0].toFixed(1),
    ];
    rows.push(row);
    console.log(row.join(' | '));
  }
  const head = [
    'clip',
    'all dubbed',
    'one dubbed',
    'floor: adelay + amix',
    'floor: copy + AAC',
    'ratio to adelay + amix (all / one)',
    'ratio to copy + AAC (all / one)',
    'load',
  ];
  console.log(`\nCPU seconds of one render (ffmpeg user + system):\n| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
