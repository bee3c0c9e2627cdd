import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { WordCheck } from '../../src/api/contract';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';
import { resample } from '../../src/audio/dsp/resample';
import { checkWords } from '../../server/words';
import { closeMandarinPool, mandarinWordCheckStatus } from '../../server/words/zh';
import { runMandarinCheck } from '../../server/words/zh/check';

/** AISHELL-1 sentences (tests/fixtures/words/zh/SOURCE.md) and a German EmoDB take. */
const SAFE = { file: 'tests/fixtures/words/zh/BAC009S0150W0126.wav', text: '一点五倍以上是安全的' };
const INSTITUTE = { file: 'tests/fixtures/words/zh/BAC009S0252W0140.wav', text: '中指院监测数据显示' };
const GERMAN = 'tests/fixtures/emodb/15a01Wa.wav';

function take(file: string): { samples: Float32Array; sampleRate: number } {
  const wav = decodeWav(readFileSync(file));
  return { samples: toMono(wav), sampleRate: wav.sampleRate };
}

function checked(result: WordCheck): Extract<WordCheck, { status: 'checked' }> {
  if (result.status !== 'checked') throw new Error(`not checked: ${result.reason}`);
  return result;
}

const said = (c: Extract<WordCheck, { status: 'checked' }>) => c.words.map((w) => w.state === 'said');

afterAll(() => closeMandarinPool());

describe('Mandarin word check', () => {
  it('hears every character of the right line, in order, with times inside the take', () => {
    for (const line of [SAFE, INSTITUTE]) {
      const audio = take(line.file);
      const result = checked(runMandarinCheck({ ...audio, text: line.text }));
      expect(result.words.map((w) => w.text).join('')).toBe(line.text);
      expect(result.words.every((w) => w.state === 'said')).toBe(true);
      expect(result.completeness).toBe(1);
      expect(result.score).toBe(100);
      expect(result.otherLine).toBe(false);
      expect(result.pronunciation).toBeNull();
      const duration = audio.samples.length / audio.sampleRate;
      const starts = result.words.map((w) => w.start!);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      for (const w of result.words) {
        expect(w.start!).toBeGreaterThanOrEqual(0);
        expect(w.end!).toBeGreaterThan(w.start!);
        expect(w.end!).toBeLessThanOrEqual(duration + 0.5);
      }
    }
  });

  it('says a take of another sentence is another line', () => {
    const result = checked(runMandarinCheck({ ...take(INSTITUTE.file), text: SAFE.text }));
    expect(result.otherLine).toBe(true);
    expect(result.completeness).toBeLessThan(0.5);
  });

  it('says a sentence is another line for a word of one or two characters that it holds', () => {
    // 一点五倍以上是安全的 holds 安全 and 的, but most of what was heard is not the line: another
    // line, with none of its characters counted as said.
    const audio = take(SAFE.file);
    for (const text of ['安全', '的']) {
      const result = checked(runMandarinCheck({ ...audio, text }));
      expect(result.otherLine).toBe(true);
      expect(result.words.map((w) => w.state)).toEqual([...text].map(() => 'missed'));
      expect(result.score).toBe(0);
    }
  });

  it('names the characters after a take stops at 60 % as missed, and keeps those before it', () => {
    const audio = take(SAFE.file);
    const whole = checked(runMandarinCheck({ ...audio, text: SAFE.text }));
    const cutAt = Math.round(audio.samples.length * 0.6);
    const cutSeconds = cutAt / audio.sampleRate;
    const result = checked(
      runMandarinCheck({ ...audio, samples: audio.samples.slice(0, cutAt), text: SAFE.text }),
    );
    expect(result.otherLine).toBe(false);
    expect(result.completeness).toBeGreaterThan(0.3);
    expect(result.completeness).toBeLessThan(0.9);
    const before = whole.words.filter((w) => w.end! <= cutSeconds).length;
    const after = whole.words.filter((w) => w.start! >= cutSeconds).length;
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(0);
    // Said up to the cut, missed after it: the missed characters are the tail.
    const states = said(result);
    expect(states.slice(0, before).every(Boolean)).toBe(true);
    expect(states.slice(states.length - after).some(Boolean)).toBe(false);
    expect(states.indexOf(false)).toBeGreaterThan(0);
    expect(states.slice(states.indexOf(false)).some(Boolean)).toBe(false);
  });

  it('says the right line played backwards is no words of the line', () => {
    const audio = take(SAFE.file);
    const result = checked(
      runMandarinCheck({ ...audio, samples: audio.samples.slice().reverse(), text: SAFE.text }),
    );
    expect(result.otherLine).toBe(true);
    expect(result.completeness).toBeLessThan(0.35);
  });

  it('says silence, or an empty take, is no words: nothing said, another line', () => {
    const result = checked(
      runMandarinCheck({ samples: new Float32Array(3 * 16_000), sampleRate: 16_000, text: SAFE.text }),
    );
    expect(result.completeness).toBe(0);
    expect(result.otherLine).toBe(true);
    expect(result.words).toHaveLength(SAFE.text.length);
    expect(result.words.every((w) => w.state === 'missed' && w.start === null)).toBe(true);
    const empty = checked(
      runMandarinCheck({ samples: new Float32Array(0), sampleRate: 44_100, text: SAFE.text }),
    );
    expect(empty.completeness).toBe(0);
    expect(empty.otherLine).toBe(true);
  });

  it('says German speech against a Mandarin line is another line', () => {
    const result = checked(runMandarinCheck({ ...take(GERMAN), text: INSTITUTE.text }));
    expect(result.otherLine).toBe(true);
  });

  it('checks a take recorded at 44.1 kHz like the same take at 16 kHz', () => {
    const audio = take(INSTITUTE.file);
    const high = resample(audio.samples, audio.sampleRate, 44_100);
    const result = checked(runMandarinCheck({ samples: high, sampleRate: 44_100, text: INSTITUTE.text }));
    expect(result.completeness).toBe(1);
  });

  it('checks only the Chinese characters of a subtitle, and answers no_text when there are none', () => {
    const audio = take(INSTITUTE.file);
    const result = checked(runMandarinCheck({ ...audio, text: `“${INSTITUTE.text}！” (2024)` }));
    expect(result.words.map((w) => w.text).join('')).toBe(INSTITUTE.text);
    expect(runMandarinCheck({ ...audio, text: 'OK 2024' })).toEqual({
      status: 'unchecked',
      reason: 'no_text',
      language: 'zh',
    });
  });

  it('runs through checkWords in a worker thread, leaving the event loop free, with the same verdict', async () => {
    expect(mandarinWordCheckStatus().ready).toBe(true);
    const audio = take(SAFE.file);
    const order: string[] = [];
    const pending = checkWords({ ...audio, text: SAFE.text, language: 'zh-CN' }).then((r) => {
      order.push('checked');
      return r;
    });
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('event loop turned');
        resolve();
      }),
    );
    const result = await pending;
    expect(order).toEqual(['event loop turned', 'checked']);
    expect(result).toEqual(runMandarinCheck({ ...audio, text: SAFE.text }));
    // The caller's buffer is its own: the worker got a copy.
    expect(audio.samples.length).toBeGreaterThan(0);
  });
});
