/**
 * The `pocketsphinx_batch` passes over takes (docs/words.md): a private temp dir with the 16 kHz wavs,
 * the control files and the grammars, the first pass's senone scores reused by the next, each child
 * killed if it outlives its bound, the dir removed whatever happens. Flags after the feasibility
 * measurements summarised in docs/words.md: batch CMN, no silence removal (times stay true), and
 * every senone scored in every frame (`-compallsen yes`) so a forced word's acoustic score is
 * relative to the best senone of each frame and comparable with the phone loop's.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeWav16 } from '../../../src/audio/dsp/wav';

export const SPHINX_RATE = 16_000;
/** pocketsphinx's frame: 10 ms. */
export const FRAME_SECONDS = 0.01;

export interface EnginePaths {
  bin: string;
  /** The model folder holding `en-us/` (acoustic model) and `en-us-phone.lm.bin`. */
  modelDir: string;
  dict: string;
}

/** Where the engine is: Debian's paths unless the environment names others (docs/words.md). */
export function enginePaths(env: NodeJS.ProcessEnv = process.env): EnginePaths {
  const modelDir = env.WORDS_EN_MODEL_DIR || '/usr/share/pocketsphinx/model/en-us';
  return {
    bin: env.WORDS_EN_BIN || 'pocketsphinx_batch',
    modelDir,
    dict: env.WORDS_EN_DICT || path.join(modelDir, 'cmudict-en-us.dict'),
  };
}

function onPath(bin: string): boolean {
  const dirs = bin.includes('/') ? [''] : (process.env.PATH ?? '').split(path.delimiter);
  return dirs.some((dir) => {
    try {
      accessSync(dir ? path.join(dir, bin) : bin, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** What of the engine is missing on this machine (empty when all is there). */
export function missingParts(paths: EnginePaths = enginePaths()): string[] {
  const missing: string[] = [];
  if (!onPath(paths.bin)) missing.push(`the program ${paths.bin}`);
  if (!readable(path.join(paths.modelDir, 'en-us', 'mdef')))
    missing.push(`the acoustic model in ${paths.modelDir}/en-us`);
  if (!readable(path.join(paths.modelDir, 'en-us-phone.lm.bin')))
    missing.push(`the phone model ${paths.modelDir}/en-us-phone.lm.bin`);
  if (!readable(paths.dict)) missing.push(`the dictionary ${paths.dict}`);
  return missing;
}

/** One segment of a `-hypseg` line: a word (or phone, or silence/filler) and its frames. */
export interface Segment {
  label: string;
  /** First and last frame, inclusive. */
  start: number;
  end: number;
  ascr: number;
}

/**
 * Parses one `-hypseg` line: `uttid S 0 T <total> A <ascr> L <lscr> {sf ascr lscr word}* <last frame>`.
 * A segment ends one frame before the next one starts. Null transitions print as `(NULL)` and are
 * dropped; `word(2)` variant suffixes are stripped. Null when the search never reached its final state.
 */
export function parseHypseg(line: string): Segment[] | null {
  const parts = line.trim().split(/\s+/);
  const rest = parts.slice(9);
  if (rest.length < 5) return null;
  const segs: Segment[] = [];
  const last = Number(rest.at(-1));
  for (let i = 0; i + 3 < rest.length; i += 4) {
    const start = Number(rest[i]);
    const next = i + 4 + 3 < rest.length ? Number(rest[i + 4]) : last + 1;
    const label = rest[i + 3].replace(/\(\d+\)$/, '');
    if (label === '(NULL)' || next <= start) continue;
    segs.push({ label, start, end: next - 1, ascr: Number(rest[i + 1]) });
  }
  return segs.length ? segs : null;
}

export interface BatchUtterance {
  /** 16 kHz mono. */
  pcm: Float32Array;
  /** FSG text for an alignment pass; omitted for the phone loop. */
  fsg?: string;
}

/** What one pass searches: the line's grammars (the default) or the free phone loop. */
export interface Pass {
  loop?: boolean;
  wide?: boolean;
}

export interface BatchRun extends Pass {
  utterances: BatchUtterance[];
  /** Dictionary text (only the lines' words, so the run starts fast). */
  dict: string;
}

export class SphinxTimeout extends Error {}

/** Bound on one run of one take: a 30 s take decodes in about 3 s here (docs/words.md). */
export const RUN_TIMEOUT_MS = 20_000;

const WIDE_BEAMS = [
  ['-beam', '1e-100'],
  ['-pbeam', '1e-100'],
  ['-wbeam', '1e-80'],
  ['-lpbeam', '1e-100'],
  ['-lponlybeam', '1e-80'],
  ['-maxhmmpf', '-1'],
].flat();

/** Where the first pass's senone scores are kept for the later passes to read. */
const SENONE_DIR = 'senones';
/** Where the first pass of a pair logs them into pipes, and where its partner reads them (withTakes). */
const PIPE_IN = 'scored';
const PIPE_OUT = 'piped';
/** A pass's senone scores: computed and logged into a folder, read from one, or neither. */
type Senones = { log: string } | { read: string } | 'none';

/**
 * The command line of one pass over the takes written in `dir` (withTakes). The first pass computes
 * the model's Gaussians, most of a pass's cost, and logs the senone scores (`-senlogdir`); a later pass
 * reads them (`-senin`) and only searches: the same scores, so the same paths (docs/words.md).
 */
function batchArgs(pass: Pass, dir: string, paths: EnginePaths, senones: Senones, out: string): string[] {
  const args = [
    '-hmm',
    path.join(paths.modelDir, 'en-us'),
    '-dict',
    path.join(dir, 'words.dict'),
    '-cmn',
    'batch',
    '-remove_silence',
    'no',
    '-compallsen',
    'yes',
    '-hypseg',
    path.join(dir, `${out}.seg`),
    '-logfn',
    path.join(dir, `${out}.log`),
  ];
  if (senones === 'none' || 'log' in senones) {
    args.push('-adcin', 'yes', '-adchdr', '44', '-cepext', '.wav', '-cepdir', dir);
    args.push('-ctl', path.join(dir, 'utts.ctl'));
    // About 1 MB per second of take: kept only where another pass reads them.
    if (senones !== 'none') args.push('-senlogdir', senones.log);
  } else {
    args.push('-senin', 'yes', '-cepext', '.sen', '-cepdir', senones.read);
    args.push('-ctl', path.join(dir, 'senones.ctl'));
  }
  if (pass.loop) {
    args.push(
      '-allphone',
      path.join(paths.modelDir, 'en-us-phone.lm.bin'),
      '-allphone_ci',
      'yes',
      '-lw',
      '2.0',
    );
  } else {
    // Without a search named at start-up, pocketsphinx_batch reads its default `-lm` (the 27 MB
    // English word model) though -fsgctl replaces that search for every utterance: a third of a
    // 4 s take's CPU. The small phone model in its place is read in a few ms and changes no output
    // (the grammar search never consults it; docs/words.md, "What runs").
    args.push('-fsgctl', path.join(dir, 'fsgs.ctl'), '-lm', path.join(paths.modelDir, 'en-us-phone.lm.bin'));
  }
  if (pass.wide) args.push(...WIDE_BEAMS);
  return args;
}

/**
 * Runs the engine (or a shell script of engine runs, as its own process group) to its end; rejects
 * on a failure or once it outlives `timeoutMs` (then killed, with every process of the group).
 */
function runEngine(bin: string, args: string[], timeoutMs: number, group = false): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: group });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 4000) stderr += b.toString();
    });
    const timer = setTimeout(() => {
      if (!group || !child.pid) child.kill('SIGKILL');
      else {
        // The group may have ended as the bound passed; unlike child.kill, process.kill throws then.
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
      reject(new SphinxTimeout(`pocketsphinx_batch ran longer than ${timeoutMs} ms and was stopped`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`pocketsphinx_batch exited with ${code}: ${stderr.slice(-500)}`));
    });
  });
}

/** One pass over the takes of a withTakes run: each take's segments (null: the search found no path). */
export type RunPass = (pass: Pass) => Promise<(Segment[] | null)[]>;

/**
 * The first two passes of a one-take withTakes run side by side: the second reads the senone scores
 * the first computes as it logs them, through a pipe, so its search runs while the first computes
 * the Gaussians; a copy of the scores is kept for any later pass (docs/words.md, "What runs").
 */
export type RunPair = (first: Pass, second: Pass) => Promise<[(Segment[] | null)[], (Segment[] | null)[]]>;

/** A word of a shell command line, quoted. */
const quoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Writes takes (one in the product; many in the training script, which saves the start-up per take)
 * to a private dir and hands `work` the passes over them. The frames are scored once, by the first
 * pass (or the first of a pair, RunPair); every later pass reads those scores and only searches. The
 * dir is removed whatever happens.
 */
export async function withTakes<T>(
  utterances: BatchUtterance[],
  dict: string,
  work: (pass: RunPass, pair: RunPair) => Promise<T>,
  paths: EnginePaths = enginePaths(),
  timeoutMs = RUN_TIMEOUT_MS * utterances.length,
  /** False for a single pass: nothing would read the scores. */
  reuse = true,
): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'words-en-'));
  try {
    const ids = utterances.map((_, i) => `u${i}`);
    for (const [i, u] of utterances.entries()) {
      await writeFile(path.join(dir, `${ids[i]}.wav`), new Uint8Array(encodeWav16(u.pcm, SPHINX_RATE)));
      if (u.fsg) await writeFile(path.join(dir, `${ids[i]}.fsg`), u.fsg);
    }
    // pocketsphinx names each senone log after the utterance's number in the run, not its id.
    const senoneIds = ids.map((_, i) => String(i).padStart(9, '0'));
    await writeFile(path.join(dir, 'utts.ctl'), `${ids.join('\n')}\n`);
    await writeFile(path.join(dir, 'senones.ctl'), `${senoneIds.join('\n')}\n`);
    await writeFile(path.join(dir, 'words.dict'), dict);
    if (utterances.some((u) => u.fsg)) {
      await writeFile(
        path.join(dir, 'fsgs.ctl'),
        `${ids.map((id) => path.join(dir, `${id}.fsg`)).join('\n')}\n`,
      );
    }
    const kept = path.join(dir, SENONE_DIR);
    await mkdir(kept);
    let outputs = 0;
    const segments = async (out: string, senones: Senones) => {
      const byId = new Map<string, string>();
      for (const line of (await readFile(path.join(dir, `${out}.seg`), 'utf8')).split('\n')) {
        const id = line.slice(0, line.indexOf(' '));
        if (id) byId.set(id, line);
      }
      return (senones !== 'none' && 'read' in senones ? senoneIds : ids).map((id) => {
        const line = byId.get(id);
        return line ? parseHypseg(line) : null;
      });
    };
    const passOnce = async (pass: Pass, senones: Senones) => {
      const out = `out${outputs++}`;
      await runEngine(paths.bin, batchArgs(pass, dir, paths, senones, out), timeoutMs);
      return segments(out, senones);
    };
    // Settles once the frames' scores are kept; null before the first pass.
    let scored: Promise<unknown> | null = null;
    const pass: RunPass = (p) => {
      if (!reuse) return passOnce(p, 'none');
      if (scored) return scored.then(() => passOnce(p, { read: kept }));
      const first = passOnce(p, { log: kept });
      scored = first;
      return first;
    };
    const pair: RunPair = (a, b) => {
      if (!reuse || scored || utterances.length !== 1)
        throw new Error('a pair of passes is only the first of a one-take run that reuses its scores');
      const run = (async () => {
        const [inPipe, outPipe] = [path.join(dir, PIPE_IN), path.join(dir, PIPE_OUT)];
        await Promise.all([mkdir(inPipe), mkdir(outPipe)]);
        const [outA, outB] = [`out${outputs++}`, `out${outputs++}`];
        const logged: Senones = { log: inPipe };
        const read: Senones = { read: outPipe };
        const command = (args: string[]) => [paths.bin, ...args].map(quoted).join(' ');
        const log = (folder: string) => quoted(path.join(folder, `${senoneIds[0]}.sen`));
        // The first logs the take's scores into a pipe; tee keeps a copy and passes them on to the
        // second. If the first fails, the script stops its whole process group (runEngine starts it
        // as one), itself excepted. If it ends without having written its log (it skipped the take),
        // opening the pipe once lets tee see the end, so the second ends too, having found no path.
        const script = [
          `mkfifo ${log(inPipe)} ${log(outPipe)} || exit 1`,
          `${command(batchArgs(a, dir, paths, logged, outA))} & first=$!`,
          `tee ${log(kept)} < ${log(inPipe)} > ${log(outPipe)} & copy=$!`,
          `${command(batchArgs(b, dir, paths, read, outB))} & second=$!`,
          'wait $first; a=$?',
          `[ $a -eq 0 ] || { trap '' TERM; kill 0; echo "pocketsphinx_batch exited with $a" >&2; exit 1; }`,
          `exec 3<> ${log(inPipe)}; exec 3>&-`,
          'wait $copy; c=$?',
          'wait $second; b=$?',
          '[ $c -eq 0 ] && [ $b -eq 0 ] || { echo "the scores did not pass on ($c, $b)" >&2; exit 1; }',
        ].join('\n');
        await runEngine('sh', ['-c', script], timeoutMs, true);
        return Promise.all([segments(outA, logged), segments(outB, read)]);
      })();
      scored = run;
      return run;
    };
    return await work(pass, pair);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One pass over takes, alone (the training script's loop; the tests). */
export function runBatch(
  run: BatchRun,
  paths: EnginePaths = enginePaths(),
  timeoutMs = RUN_TIMEOUT_MS * run.utterances.length,
): Promise<(Segment[] | null)[]> {
  return withTakes(run.utterances, run.dict, (pass) => pass(run), paths, timeoutMs, false);
}
