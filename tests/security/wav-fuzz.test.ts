import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeWav, encodeWav16, toMono } from '../../src/audio/dsp/wav';
import { seededRandom } from '../../scripts/lib/seeded';
import { AI_FILM, fixtureWav, LINES, seedAiFilm } from '../server/ai-support';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

// docs/security.md: thousands of mutated takes through the real upload route over HTTP. Every answer is
// below 500; every refusal is a 4xx envelope with a reason; a valid take scores the same before and
// after the barrage. Seeded: WAV_FUZZ_SEED=<n> replays a run (the seed is in every failure message).
// SQLite only: what is tested is the header check and the decoder, not the database.

const SEED = Number(process.env.WAV_FUZZ_SEED ?? 20_261_124);
const CASES = Number(process.env.WAV_FUZZ_CASES ?? 2400);
/** Below the scoring pool's queue (AI_WORKERS=1 → 8 waiting), so no answer is a 503 for load. */
const CONCURRENCY = 4;

/** Mutations picked reproducibly from a seed. */
function prng(seed: number) {
  const next = seededRandom(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
type Rng = ReturnType<typeof prng>;

interface Case {
  name: string;
  bytes: Uint8Array;
}

/** 0.6 s of real speech as canonical 16 kHz mono 16-bit PCM: small, so accepted mutants score fast. */
function baseTake(): Uint8Array {
  const speech = toMono(decodeWav(fixtureWav('15a01Nb.wav')));
  return new Uint8Array(encodeWav16(speech.subarray(8000, 8000 + 9600), 16_000));
}

const FIELDS: Array<[name: string, offset: number, size: 2 | 4]> = [
  ['riffSize', 4, 4],
  ['fmtSize', 16, 4],
  ['tag', 20, 2],
  ['channels', 22, 2],
  ['rate', 24, 4],
  ['byteRate', 28, 4],
  ['blockAlign', 32, 2],
  ['bits', 34, 2],
  ['dataSize', 40, 4],
];

function withField(base: Uint8Array, offset: number, size: 2 | 4, value: number): Uint8Array {
  const out = base.slice();
  const v = new DataView(out.buffer);
  if (size === 2) v.setUint16(offset, value & 0xffff, true);
  else v.setUint32(offset, value >>> 0, true);
  return out;
}

/** A header with the given format over `frames` frames of quiet tone (or the given sample bytes). */
function header(opts: {
  tag: number;
  channels: number;
  rate: number;
  bits: number;
  blockAlign?: number;
  dataBytes: number;
  fill?: (v: DataView, offset: number, length: number) => void;
}): Uint8Array {
  const out = new Uint8Array(44 + opts.dataBytes);
  const v = new DataView(out.buffer);
  out.set([0x52, 0x49, 0x46, 0x46], 0);
  v.setUint32(4, 36 + opts.dataBytes, true);
  out.set([0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20], 8);
  v.setUint32(16, 16, true);
  v.setUint16(20, opts.tag, true);
  v.setUint16(22, opts.channels, true);
  v.setUint32(24, opts.rate >>> 0, true);
  const align = opts.blockAlign ?? Math.ceil(opts.bits / 8) * opts.channels;
  v.setUint32(28, (opts.rate * align) >>> 0, true);
  v.setUint16(32, align & 0xffff, true);
  v.setUint16(34, opts.bits, true);
  out.set([0x64, 0x61, 0x74, 0x61], 36);
  v.setUint32(40, opts.dataBytes, true);
  opts.fill?.(v, 44, opts.dataBytes);
  return out;
}

const ascii = (s: string) => new TextEncoder().encode(s);

/** The deterministic families: every field, every tag, the channel and rate edges, sizes that lie. */
function structuredCases(base: Uint8Array): Case[] {
  const cases: Case[] = [];
  const add = (name: string, bytes: Uint8Array) => cases.push({ name, bytes });
  // Truncated at every byte of the header and a few points into the data.
  for (let n = 0; n <= 48; n++) add(`truncated to ${n} bytes`, base.subarray(0, n));
  for (const n of [60, 101, 1000, 3201, 6399, 6400, 6401])
    add(`truncated to ${n} bytes`, base.subarray(0, n));
  // Every format tag of the first 256, the extensible and the reserved one, at common sample sizes.
  for (let tag = 0; tag < 256; tag++) add(`tag ${tag}`, withField(base, 20, 2, tag));
  for (const tag of [0xfffe, 0xffff, 0x8000]) add(`tag ${tag}`, withField(base, 20, 2, tag));
  for (const tag of [1, 3, 6, 7, 0x11, 0x55]) {
    for (const bits of [0, 1, 4, 8, 12, 16, 20, 24, 32, 48, 64, 0xffff]) {
      add(`tag ${tag} ${bits}-bit`, header({ tag, channels: 1, rate: 16_000, bits, dataBytes: 9600 }));
    }
  }
  // Channels: none, mono, stereo, 8, the maximum; with a consistent and a lying block align.
  for (const channels of [0, 1, 2, 3, 8, 255, 0xffff]) {
    for (const tag of [1, 3]) {
      const bits = tag === 1 ? 16 : 32;
      add(`${channels} ch tag ${tag}`, header({ tag, channels, rate: 16_000, bits, dataBytes: 19_200 }));
      for (const blockAlign of [0, 1, 2, 3, 4, 7, 0xffff]) {
        add(
          `${channels} ch tag ${tag} block ${blockAlign}`,
          header({ tag, channels, rate: 16_000, bits, blockAlign, dataBytes: 19_200 }),
        );
      }
    }
  }
  // Rates from 0 to 4e9 and the 32-bit edge.
  for (const rate of [
    0,
    1,
    2,
    100,
    7999,
    8000,
    11_025,
    16_000,
    22_050,
    24_000,
    32_000,
    44_100,
    48_000,
    88_200,
    96_000,
    192_000,
    1e6,
    2 ** 31 - 1,
    2 ** 31,
    4e9,
    0xffffffff,
  ]) {
    add(`rate ${rate}`, withField(base, 24, 4, rate));
    add(`float rate ${rate}`, header({ tag: 3, channels: 1, rate, bits: 32, dataBytes: 6400 }));
  }
  // Sizes that lie, in every size field, and every other header field set to its edge values.
  for (const [name, offset, size] of FIELDS) {
    const edges =
      size === 2
        ? [0, 1, 2, 3, 0x7fff, 0x8000, 0xfffe, 0xffff]
        : [
            0, 1, 15, 16, 17, 18, 39, 40, 43, 44, 45, 9599, 9600, 9601, 0x7fffffff, 0x80000000, 0xfffffffe,
            0xffffffff,
          ];
    for (const value of edges) add(`${name} = ${value}`, withField(base, offset, size, value));
  }
  // Float samples that are not numbers (refused with a reason, never scored 0).
  const floatWith = (name: string, values: number[], bits: 32 | 64 = 32) =>
    add(
      name,
      header({
        tag: 3,
        channels: 1,
        rate: 16_000,
        bits,
        dataBytes: 9600 * (bits / 8),
        fill: (v, o, len) => {
          for (let i = 0, k = 0; o + i < o + len; i += bits / 8, k++) {
            const x =
              values.length > 0 && k % 97 === 0 ? values[(k / 97) % values.length] : 0.1 * Math.sin(k / 5);
            if (bits === 32) v.setFloat32(o + i, x, true);
            else v.setFloat64(o + i, x, true);
          }
        },
      }),
    );
  floatWith('float32 clean', []);
  for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    floatWith(`float32 with ${x}`, [x]);
    floatWith(`float64 with ${x}`, [x], 64);
  }
  floatWith('float32 with huge values', [3e38, -3e38, 1e-45]);
  // Chunks in odd places: a LIST with a lying size before fmt, data before fmt, two fmt chunks,
  // WAVE_FORMAT_EXTENSIBLE cut inside its sub-format, thousands of empty chunks.
  const chunk = (id: string, body: Uint8Array, size = body.length) => {
    const out = new Uint8Array(8 + body.length + (body.length & 1));
    out.set(ascii(id), 0);
    new DataView(out.buffer).setUint32(4, size >>> 0, true);
    out.set(body, 8);
    return out;
  };
  const riff = (...parts: Uint8Array[]) => {
    const total = 12 + parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    out.set(ascii('RIFF'), 0);
    new DataView(out.buffer).setUint32(4, total - 8, true);
    out.set(ascii('WAVE'), 8);
    let o = 12;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };
  const fmt = base.subarray(12, 36);
  const data = base.subarray(36);
  for (const size of [0, 1, 3, 26, 0x7fffffff, 0xffffffff])
    add(`LIST size ${size} before fmt`, riff(chunk('LIST', new Uint8Array(26), size), fmt, data));
  add('data before fmt', riff(data, fmt));
  add('two fmt chunks', riff(fmt, chunk('fmt ', new Uint8Array(16)), data));
  add('only fmt', riff(fmt));
  add('only data', riff(data));
  add('no chunks', riff());
  for (const size of [18, 24, 39, 40]) {
    const ext = new Uint8Array(size);
    const v = new DataView(ext.buffer);
    v.setUint16(0, 0xfffe, true);
    v.setUint16(2, 1, true);
    v.setUint32(4, 16_000, true);
    v.setUint16(12, 2, true);
    v.setUint16(14, 16, true);
    add(`extensible fmt of ${size} bytes`, riff(chunk('fmt ', ext, 40), data));
  }
  const empties = new Uint8Array(8 * 4000);
  for (let i = 0; i < 4000; i++) empties.set(ascii('junk'), i * 8);
  add('4000 empty chunks', riff(empties, fmt, data));
  // Files that are not wavs at all.
  const files: Array<[string, Uint8Array]> = [
    ['empty', new Uint8Array(0)],
    ['png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(100))],
    ['mp3', Uint8Array.of(0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 10, ...new Uint8Array(500))],
    ['ogg', ascii(`OggS${'\u0000'.repeat(200)}`)],
    ['json', ascii('{"file":"take.wav"}')],
    ['html', ascii('<!doctype html><script>alert(1)</script>')],
    ['zip', Uint8Array.of(0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(100))],
    ['avi', ascii('RIFF\u0010\u0000\u0000\u0000AVI LIST\u0000\u0000\u0000\u0000')],
    [
      'rifx',
      (() => {
        const b = base.slice();
        b.set(ascii('RIFX'), 0);
        return b;
      })(),
    ],
    [
      'rf64',
      (() => {
        const b = base.slice();
        b.set(ascii('RF64'), 0);
        return b;
      })(),
    ],
    ['text', ascii('hello '.repeat(2000))],
  ];
  for (const [name, bytes] of files) add(`not a wav: ${name}`, bytes);
  return cases;
}

/** Random families until CASES: byte flips in the header, flips in the data, random bytes. */
function randomCase(base: Uint8Array, rng: Rng, k: number): Case {
  switch (rng.int(6)) {
    case 0:
    case 1: {
      const out = base.slice();
      const flips = 1 + rng.int(6);
      for (let i = 0; i < flips; i++) out[rng.int(44)] ^= 1 << rng.int(8);
      return { name: `random ${k}: ${flips} header bit flips`, bytes: out };
    }
    case 2: {
      const out = base.slice();
      for (let i = 0; i < 4; i++) out[rng.int(44)] = rng.int(256);
      return {
        name: `random ${k}: header bytes replaced`,
        bytes: out.subarray(0, 20 + rng.int(out.length - 20)),
      };
    }
    case 3: {
      const out = base.slice();
      const [, offset, size] = rng.pick(FIELDS);
      const v = new DataView(out.buffer);
      if (size === 2) v.setUint16(offset, rng.int(0x10000), true);
      else v.setUint32(offset, rng.int(0x100000000), true);
      return { name: `random ${k}: field at ${offset} randomised`, bytes: out };
    }
    case 4: {
      const out = new Uint8Array(rng.int(4096));
      for (let i = 0; i < out.length; i++) out[i] = rng.int(256);
      if (rng.next() < 0.5 && out.length >= 12) {
        out.set(ascii('RIFF'), 0);
        out.set(ascii('WAVE'), 8);
      }
      return { name: `random ${k}: ${out.length} random bytes`, bytes: out };
    }
    default: {
      // A few flips in the samples: a valid take that is scored (kept rare, scoring is the slow part).
      const out = base.slice();
      if (rng.next() < 0.3) out[44 + rng.int(out.length - 44)] ^= 0xff;
      else out[rng.int(44)] ^= 1 << rng.int(8);
      return { name: `random ${k}: one flip`, bytes: out };
    }
  }
}

let server: TestServer;
let fuzzToken: string;
beforeAll(async () => {
  server = await startTestServer({
    // One learner sends thousands of takes: no daily byte limit, no per-IP request limit.
    env: { TAKES_UPLOAD_MB_PER_DAY: '0', RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  await seedAiFilm(server.app);
  await addUser(server.app.db, 'fuzzer', 'fuzz-pass-1');
  fuzzToken = (await client(server.url).login('fuzzer', 'fuzz-pass-1')).token;
});
afterAll(() => server?.close());

async function send(token: string, bytes: Uint8Array): Promise<{ status: number; text: string }> {
  const form = new FormData();
  form.set('subtitlesId', LINES.neutral);
  form.set('filmId', AI_FILM);
  form.set('attempt', '1');
  form.set('file', new Blob([bytes], { type: 'audio/wav' }), 'take.wav');
  const res = await fetch(`${server.url}/ai/speech_emotion`, {
    method: 'POST',
    headers: { token },
    body: form,
  });
  return { status: res.status, text: await res.text() };
}

/** A valid take's score from a learner with no history, without the parts that differ per take. */
async function freshScore(account: string, bytes: Uint8Array) {
  await addUser(server.app.db, account, 'fuzz-pass-1');
  const { token } = await client(server.url).login(account, 'fuzz-pass-1');
  const res = await send(token, bytes);
  expect(res.status).toBe(200);
  const { takeId: _t, audioUrl: _a, createdAt: _c, ...score } = JSON.parse(res.text).data;
  return score;
}

it(`${CASES} mutated takes: none answers 500, every refusal is a 4xx with a reason (seed ${SEED})`, async () => {
  const base = baseTake();
  // Warm the actor's cached analysis first, so "before" and "after" read it the same way.
  await freshScore('warm-up', base);
  const before = await freshScore('before', base);

  const rng = prng(SEED);
  const cases = structuredCases(base);
  expect(cases.length).toBeGreaterThan(650);
  for (let k = cases.length; k < CASES; k++) cases.push(randomCase(base, rng, k));

  const failures: string[] = [];
  const tally = { accepted: 0, refused: 0 };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const res = await send(fuzzToken, c.bytes);
      let body: { code?: unknown; msg?: unknown } = {};
      try {
        body = JSON.parse(res.text);
      } catch {
        failures.push(`${c.name}: HTTP ${res.status}, not JSON: ${res.text.slice(0, 120)}`);
        continue;
      }
      if (res.status === 200 && body.code === 200) tally.accepted++;
      else if (
        res.status >= 400 &&
        res.status < 500 &&
        body.code !== 200 &&
        typeof body.msg === 'string' &&
        body.msg.trim()
      ) {
        tally.refused++;
      } else failures.push(`${c.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(
    `wav fuzz: ${cases.length} takes, ${tally.accepted} accepted, ${tally.refused} refused (seed ${SEED})`,
  );
  expect(
    failures.slice(0, 20),
    `seed ${SEED} (replay: WAV_FUZZ_SEED=${SEED}), ${failures.length} failures`,
  ).toEqual([]);
  expect(tally.accepted + tally.refused).toBe(cases.length);

  const after = await freshScore('after', base);
  expect(after, `seed ${SEED}`).toEqual(before);
}, 240_000);
