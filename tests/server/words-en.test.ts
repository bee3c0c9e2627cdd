import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WordCheck } from '../../src/api/contract';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';
import { checkWords } from '../../server/words';
import {
  ENGINE_RUNS_PER_CHECK,
  ENGLISH_CHECKS_AT_ONCE,
  englishMeasuresOf,
  englishWordCheckLine,
  englishWordCheckStatus,
} from '../../server/words/en';
import { ENGLISH_MODEL } from '../../server/words/en/model';
import { prefixGrammar, prepareLine, tokenDictionary } from '../../server/words/en/align';
import { enginePaths, parseHypseg, runBatch, SphinxTimeout, withTakes } from '../../server/words/en/sphinx';
import { readsCutShort } from '../../server/words/en/verdict';
import { lineWords } from '../../server/words/en/text';

const fixtures = path.resolve(import.meta.dirname, '..', 'fixtures');
const ENGINE_UP = englishWordCheckStatus() === null;
const IN_CI = process.env.CI === 'true';
if (!ENGINE_UP && !IN_CI) {
  console.warn(`\n[words] ${englishWordCheckLine()}: the English word check tests are SKIPPED.\n`);
}

function load(file: string): { samples: Float32Array; sampleRate: number } {
  const wav = decodeWav(readFileSync(path.join(fixtures, file)));
  return { samples: toMono(wav), sampleRate: wav.sampleRate };
}

const MAN = {
  ...load('words/en/sense_and_sensibility_01_austen_64kb-0880.wav'),
  text: 'he was not an ill disposed young man',
};
const BOOKS = {
  ...load('words/en/LJ001-0004.wav'),
  text: 'produced the block books, which were the immediate predecessors of the true printed book,',
};

/** A learner's take (speechocean762): its words fit weakly, as weak learners' do. */
const PICTURE = {
  ...load('words/en/so762-013360263.wav'),
  text: 'THE PICTURE OF THE NIGHT',
};

function checked(c: WordCheck): Extract<WordCheck, { status: 'checked' }> {
  if (c.status !== 'checked') throw new Error(`expected a checked take, got ${JSON.stringify(c)}`);
  return c;
}

describe('English line words', () => {
  it('keeps the subtitle text, drops punctuation, spells numbers and keeps contractions', () => {
    expect(lineWords('"Don\'t wait," she said - 3 times in 1984!')).toEqual([
      { text: "Don't", keys: ["don't"] },
      { text: 'wait', keys: ['wait'] },
      { text: 'she', keys: ['she'] },
      { text: 'said', keys: ['said'] },
      { text: '3', keys: ['three'] },
      { text: 'times', keys: ['times'] },
      { text: 'in', keys: ['in'] },
      { text: '1984', keys: ['nineteen', 'eighty', 'four'] },
    ]);
  });
});

describe('pocketsphinx hypothesis segments', () => {
  it('reads each segment to the frame before the next, drops null transitions and variant marks', () => {
    const line =
      'u0 S 0 T -12509 A -11835 L -674 0 -3221 -337 <sil> 67 -1691 0 t0 80 0 0 (NULL) 91 -2716 0 t1(2) 139 -3678 0 t2 203 -529 -337 <sil> 257';
    expect(parseHypseg(line)).toEqual([
      { label: '<sil>', start: 0, end: 66, ascr: -3221 },
      { label: 't0', start: 67, end: 79, ascr: -1691 },
      { label: 't1', start: 91, end: 138, ascr: -2716 },
      { label: 't2', start: 139, end: 202, ascr: -3678 },
      { label: '<sil>', start: 203, end: 257, ascr: -529 },
    ]);
  });

  it('reads a search that found no path as null', () => {
    expect(parseHypseg('u0 S 0 T 0 A 0 L 0 0')).toBeNull();
  });
});

// The engine is a Debian package (.ci/run installs it); on a machine without it these are skipped,
// but in CI a missing engine fails, like PostgreSQL (tests/server/pg-statements.test.ts).
(ENGINE_UP || IN_CI ? describe : describe.skip)('English word check (pocketsphinx)', () => {
  it('finds the engine installed', () => {
    expect(englishWordCheckStatus()).toBeNull();
    expect(englishWordCheckLine()).toMatch(/on/);
  });

  it('checks the right line complete, every word said in order, and not another line', async () => {
    const c = checked(await checkWords({ ...MAN, language: 'en' }));
    expect(c.otherLine).toBe(false);
    expect(c.completeness).toBe(1);
    expect(c.words.map((w) => w.text)).toEqual(MAN.text.split(' '));
    expect(c.words.every((w) => w.state !== 'missed' && w.start !== null && w.end !== null)).toBe(true);
    const starts = c.words.map((w) => w.start ?? 0);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(c.pronunciation?.total).toBeGreaterThan(5);
    expect(c.score).toBeGreaterThan(50);
  });

  it('calls another line another line', async () => {
    const c = checked(await checkWords({ ...MAN, text: BOOKS.text, language: 'en-US' }));
    expect(c.otherLine).toBe(true);
    expect(c.words.length).toBe(14);
    expect(c.words.every((w) => w.state === 'missed' && w.start === null)).toBe(true);
    expect(c.completeness).toBe(0);
    expect(c.pronunciation).toBeNull();
    expect(c.score).toBe(0);
  });

  it('names the tail words of a take cut to its first 60 % as missed', async () => {
    const whole = checked(await checkWords({ ...BOOKS, language: 'en' }));
    const cutAt = Math.floor(BOOKS.samples.length * 0.6);
    const cutSeconds = cutAt / BOOKS.sampleRate;
    const cut = checked(
      await checkWords({ ...BOOKS, samples: BOOKS.samples.subarray(0, cutAt), language: 'en' }),
    );
    expect(whole.completeness).toBe(1);
    const after = whole.words.filter((w) => (w.start ?? 0) >= cutSeconds).map((w) => w.text);
    expect(after.length).toBeGreaterThan(2);
    const missed = cut.words.filter((w) => w.state === 'missed').map((w) => w.text);
    // The words wholly after the cut, and at most the one word the cut splits.
    expect(missed.slice(-after.length)).toEqual(after);
    expect(missed.length - after.length).toBeLessThanOrEqual(1);
    expect(cut.completeness).toBeLessThan(0.8);
    expect(cut.words[0].state).not.toBe('missed');
  });

  it("reads a learner's take cut short as the line with its tail missed, where the line model alone says another line", async () => {
    const whole = checked(await checkWords({ ...PICTURE, language: 'en' }));
    expect(whole.otherLine).toBe(false);
    expect(whole.completeness).toBe(1);
    const cutAt = Math.floor(PICTURE.samples.length * 0.6);
    const cutSeconds = cutAt / PICTURE.sampleRate;
    const cut = checked(
      await checkWords({ ...PICTURE, samples: PICTURE.samples.subarray(0, cutAt), language: 'en' }),
    );
    const m = englishMeasuresOf(cut);
    if (!m) throw new Error('the check kept no measures');
    // The path's words fit too weakly for a whole line; nothing is said after them: cut short.
    expect(m.lineValue).toBeLessThan(ENGLISH_MODEL.line.threshold);
    expect(readsCutShort(m)).toBe(true);
    expect(cut.otherLine).toBe(false);
    const after = whole.words.filter((w) => (w.start ?? 0) >= cutSeconds).map((w) => w.text);
    expect(after).toEqual(['NIGHT']);
    // The cut splits the second THE (1.61–1.85 s in the whole take, cut at 1.68 s); the grammar
    // squeezes it into the take's last frames, and a word the end cut into is not said.
    const split = whole.words[3];
    expect(split.start).toBeLessThan(cutSeconds);
    expect(split.end).toBeGreaterThan(cutSeconds);
    expect(cut.words.filter((w) => w.state === 'missed').map((w) => w.text)).toEqual([split.text, ...after]);
    expect(cut.completeness).toBeCloseTo(0.6);
    // The same path with speech left after it is not a take that stopped: another line.
    expect(readsCutShort({ ...m, utterance: { ...m.utterance, after: 0.5 } })).toBe(false);
  });

  it("calls another line another line in a learner's take too", async () => {
    const c = checked(await checkWords({ ...PICTURE, text: BOOKS.text, language: 'en' }));
    expect(c.otherLine).toBe(true);
    expect(c.score).toBe(0);
  });

  it('hears no line in the same take played backwards', async () => {
    const reversed = MAN.samples.slice().reverse();
    const c = checked(await checkWords({ ...MAN, samples: reversed, language: 'en' }));
    expect(c.otherLine).toBe(true);
    expect(c.completeness).toBe(0);
    expect(c.score).toBe(0);
  });

  it('hears no line in silence', async () => {
    const rate = 16_000;
    const samples = new Float32Array(rate * 2);
    let seed = 7;
    for (let i = 0; i < samples.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      samples[i] = (seed / 2147483648 - 0.5) * 1e-4;
    }
    const c = checked(await checkWords({ samples, sampleRate: rate, text: MAN.text, language: 'en' }));
    expect(c.otherLine || c.completeness === 0).toBe(true);
    expect(c.score).toBe(0);
  });

  it('checks a 44.1 kHz take like its 16 kHz original', async () => {
    const { resampleSinc } = await import('../../src/audio/analysis/resample-sinc');
    const c = checked(
      await checkWords({
        samples: resampleSinc(MAN.samples, 16_000, 44_100),
        sampleRate: 44_100,
        text: MAN.text,
        language: 'en',
      }),
    );
    expect(c.otherLine).toBe(false);
    expect(c.completeness).toBe(1);
  });

  it("finds with the grammar pass's state scores, logged or piped as they are computed, what passes that score the frames themselves find", async () => {
    const line = prepareLine(MAN.text);
    const dict = tokenDictionary(line.tokens);
    const utterance = { pcm: MAN.samples, fsg: prefixGrammar(line.tokens.length) };
    const inTurn = await withTakes([utterance], dict, async (pass) => [
      await pass({}),
      await pass({ loop: true }),
      await pass({ wide: true }),
    ]);
    const paired = await withTakes([utterance], dict, async (pass, pair) => [
      ...(await pair({}, { loop: true })),
      await pass({ wide: true }),
    ]);
    const alone = await Promise.all([
      runBatch({ utterances: [utterance], dict }),
      runBatch({ utterances: [{ pcm: MAN.samples }], dict, loop: true }),
      runBatch({ utterances: [utterance], dict, wide: true }),
    ]);
    const [grammar, loop] = alone;
    expect(grammar[0]?.map((s) => s.label)).toContain('t0');
    expect(loop[0]?.length).toBeGreaterThan(10);
    expect(inTurn).toEqual(alone);
    expect(paired).toEqual(alone);
  });

  it('ends a pair at once, with no process left waiting on its pipes, when the first pass fails or skips the take', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'words-pair-'));
    // The real engine behind a script that fails the first pass of a pair (the one that logs).
    const failing = path.join(root, 'pocketsphinx_batch');
    writeFileSync(
      failing,
      `#!/bin/sh\ncase "$*" in *-senlogdir*) exit 3;; esac\nexec '${enginePaths().bin}' "$@"\n`,
    );
    chmodSync(failing, 0o755);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = root;
    // Every process of a pair runs with its run's dir, under root, on its command line.
    const leftOver = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path.join(root, 'words-en-'));
          } catch {
            return false; // gone meanwhile
          }
        });
    try {
      const line = prepareLine(MAN.text);
      const take = { pcm: MAN.samples, fsg: prefixGrammar(line.tokens.length) };
      const dict = tokenDictionary(line.tokens);
      await expect(
        withTakes([take], dict, async (_pass, pair) => pair({}, { loop: true }), {
          ...enginePaths(),
          bin: failing,
        }),
      ).rejects.toThrow('pocketsphinx_batch exited with 3');
      expect(leftOver()).toEqual([]);
      // A grammar it cannot read makes the first pass skip the take: neither search finds a path.
      const skipped = await withTakes([{ ...take, fsg: 'not a grammar' }], dict, async (_pass, pair) =>
        pair({}, { loop: true }),
      );
      expect(skipped).toEqual([[null], [null]]);
      expect(leftOver()).toEqual([]);
      expect(readdirSync(root)).toEqual(['pocketsphinx_batch']);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves no temp files behind and stops a run that outlives its bound', async () => {
    // A private temp root, so other processes' runs cannot change the count.
    const root = mkdtempSync(path.join(os.tmpdir(), 'words-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = root;
    try {
      await expect(
        runBatch({ utterances: [{ pcm: MAN.samples }], dict: '', loop: true }, undefined, 1),
      ).rejects.toBeInstanceOf(SphinxTimeout);
      checked(await checkWords({ ...MAN, language: 'en' }));
      expect(readdirSync(root)).toEqual([]);
    } finally {
      // Assigning undefined would leave the string "undefined" behind.
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('runs at most ENGLISH_CHECKS_AT_ONCE checks at once under a burst, and answers every one', async () => {
    // The real engine behind a shell script that notes each run's start and end in a log (lines
    // appended with O_APPEND, so concurrent runs cannot interleave inside a line).
    const root = mkdtempSync(path.join(os.tmpdir(), 'words-burst-'));
    const log = path.join(root, 'runs.log');
    const bin = path.join(root, 'pocketsphinx_batch');
    writeFileSync(
      bin,
      `#!/bin/sh\necho start >> '${log}'\n'${enginePaths().bin}' "$@"\nrc=$?\necho end >> '${log}'\nexit $rc\n`,
    );
    chmodSync(bin, 0o755);
    const saved = process.env.WORDS_EN_BIN;
    process.env.WORDS_EN_BIN = bin;
    try {
      const burst = ENGLISH_CHECKS_AT_ONCE * 3 + 1;
      const answers = await Promise.all(
        Array.from({ length: burst }, () => checkWords({ ...MAN, language: 'en' })),
      );
      expect(answers.map((a) => checked(a).completeness)).toEqual(Array(burst).fill(1));
      let running = 0;
      let most = 0;
      const events = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      for (const e of events) {
        running += e === 'start' ? 1 : -1;
        most = Math.max(most, running);
      }
      // Each check runs its grammar pass and phone loop side by side, so a bound of N checks is 2N
      // runs at once.
      expect(events.filter((e) => e === 'start').length).toBeGreaterThanOrEqual(2 * burst);
      expect(most).toBe(ENGINE_RUNS_PER_CHECK * ENGLISH_CHECKS_AT_ONCE);
    } finally {
      if (saved === undefined) delete process.env.WORDS_EN_BIN;
      else process.env.WORDS_EN_BIN = saved;
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('word check languages', () => {
  it('says a German line is not checked for its language', async () => {
    const de = load('emodb/15a01La.wav');
    expect(await checkWords({ ...de, text: 'Der Lappen liegt auf dem Eisschrank.', language: 'de' })).toEqual(
      {
        status: 'unchecked',
        reason: 'language',
        language: 'de',
      },
    );
  });

  it('says an English line without words has nothing to check', async () => {
    expect(await checkWords({ ...MAN, text: '…', language: 'en' })).toEqual({
      status: 'unchecked',
      reason: 'no_text',
      language: 'en',
    });
  });

  it('says which part is missing and the one command that adds it when the engine is absent', async () => {
    const { missingParts } = await import('../../server/words/en/sphinx');
    const missing = missingParts({
      bin: 'no-such-pocketsphinx',
      modelDir: '/nonexistent',
      dict: '/nonexistent/d.dict',
    });
    expect(missing).toEqual([
      'the program no-such-pocketsphinx',
      'the acoustic model in /nonexistent/en-us',
      'the phone model /nonexistent/en-us-phone.lm.bin',
      'the dictionary /nonexistent/d.dict',
    ]);
  });
});
