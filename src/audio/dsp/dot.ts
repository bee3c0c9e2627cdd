/**
 * Float32 dot products over one linear memory: the inner loop of the resampler (one per output
 * sample, ~240 taps) and of the live pitch (one per lag). WebAssembly SIMD (four lanes, four
 * sums) where the engine has it; plain JS otherwise (engines without Wasm SIMD, e.g. Safari
 * before 16.4, or a page whose Content-Security-Policy forbids compiling WebAssembly). Pure: uses
 * only the `WebAssembly` global that browsers, workers and Node provide. The measured speed-up is in
 * docs/performance.md.
 *
 * Both kernels read `n` floats from each operand, where `n` must be a multiple of `DOT_BLOCK`:
 * callers pad their operands with zeros (filter phases) or leave zeros after them (pitch frame).
 */

/** Independent f32x4 sums in the kernel's loop (see the module below). */
const SUMS = 4;
/** Floats per turn of the kernel's loop: SUMS sums of four lanes. */
export const DOT_BLOCK = 4 * SUMS;

export interface DotKernel {
  /** 'simd' or 'js': which kernel runs (for the bench and the tests). */
  readonly kind: 'simd' | 'js';
  /** The memory as float32. Growing (`reserve`) replaces it: read it again afterwards. */
  readonly f32: Float32Array;
  /** Makes `f32` hold at least `floats` floats, keeping its contents. */
  reserve(floats: number): void;
  /**
   * Σ f32[a + k] · f32[b + k] for k < n; n a multiple of DOT_BLOCK, a and b float indices. A
   * function property (the Wasm export itself), so a hot loop calls it without a JS wrapper.
   */
  readonly dot: (a: number, b: number, n: number) => number;
}

// --- the WebAssembly module, assembled here so it needs no build step --------------------------
//
// (module
//   (import "m" "mem" (memory 1))
//   (func (export "dot") (param $a i32) (param $b i32) (param $n i32) (result f32)
//     (local $end i32) (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
//     (local.set $a (i32.shl (local.get $a) (i32.const 2)))      ;; float indices → byte addresses
//     (local.set $b (i32.shl (local.get $b) (i32.const 2)))
//     (local.set $end (i32.add (local.get $a) (i32.shl (local.get $n) (i32.const 2))))
//     (block $done
//       (br_if $done (i32.eqz (local.get $n)))
//       (loop $next                 ;; DOT_BLOCK floats per turn: four independent sums of four lanes
//         (local.set $s0 (f32x4.add (local.get $s0) (f32x4.mul (v128.load (local.get $a)) (v128.load (local.get $b)))))
//         … the same for $s1, $s2, $s3 at byte offsets 16, 32, 48 …
//         (local.set $b (i32.add (local.get $b) (i32.const 64)))
//         (br_if $next (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 64))) (local.get $end)))))
//     (local.set $s0 (f32x4.add (f32x4.add (local.get $s0) (local.get $s1)) (f32x4.add (local.get $s2) (local.get $s3))))
//     (f32.add (f32.add (f32x4.extract_lane 0 (local.get $s0)) (f32x4.extract_lane 1 (local.get $s0)))
//              (f32.add (f32x4.extract_lane 2 (local.get $s0)) (f32x4.extract_lane 3 (local.get $s0))))))
//
// Four sums, not one: an f32x4.add waits for the previous add into the same sum (a few cycles), so
// one sum would leave the SIMD units idle most of the time.

const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const I32_EQZ = 0x45;
const F32_ADD = 0x92;
const BLOCK = 0x02;
const LOOP = 0x03;
const BR_IF = 0x0d;
const END = 0x0b;
const VOID = 0x40;
// SIMD instructions: prefix 0xfd, then the opcode as unsigned LEB128.
const V128_LOAD = [0xfd, 0x00];
const F32X4_EXTRACT_LANE = [0xfd, 0x1f];
const F32X4_ADD = [0xfd, 0xe4, 0x01];
const F32X4_MUL = [0xfd, 0xe6, 0x01];
// Locals: params a=0, b=1, n=2; then end=3 and the sums s0…s3 = 4…7.
const [A, B, N, END_AT, S0] = [0, 1, 2, 3, 4];
const STEP_BYTES = DOT_BLOCK * 4;

/** Unsigned and signed LEB128 (section sizes; i32.const immediates). */
function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}
function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

/** s_i += a[16 i …] · b[16 i …]: v128.load carries an alignment hint (2^2: floats) and a byte offset. */
const multiplyAdd = (i: number) => [
  ...[LOCAL_GET, S0 + i],
  ...[LOCAL_GET, A, ...V128_LOAD, 2, ...uleb(16 * i)],
  ...[LOCAL_GET, B, ...V128_LOAD, 2, ...uleb(16 * i)],
  ...[...F32X4_MUL, ...F32X4_ADD, LOCAL_SET, S0 + i],
];
const lane = (i: number) => [LOCAL_GET, S0, ...F32X4_EXTRACT_LANE, i];

const BODY = [
  ...[2, 1, I32, SUMS, V128], // locals: 1 × i32, SUMS × v128
  ...[LOCAL_GET, A, I32_CONST, 2, I32_SHL, LOCAL_SET, A, LOCAL_GET, B, I32_CONST, 2, I32_SHL, LOCAL_SET, B],
  ...[LOCAL_GET, A, LOCAL_GET, N, I32_CONST, 2, I32_SHL, I32_ADD, LOCAL_SET, END_AT],
  ...[BLOCK, VOID, LOCAL_GET, N, I32_EQZ, BR_IF, 0],
  ...[LOOP, VOID],
  ...Array.from({ length: SUMS }, (_, i) => multiplyAdd(i)).flat(),
  ...[LOCAL_GET, B, I32_CONST, ...sleb(STEP_BYTES), I32_ADD, LOCAL_SET, B],
  ...[LOCAL_GET, A, I32_CONST, ...sleb(STEP_BYTES), I32_ADD, LOCAL_TEE, A],
  ...[LOCAL_GET, END_AT, I32_LT_U, BR_IF, 0],
  ...[END, END],
  // s0 = (s0 + s1) + (s2 + s3), written for SUMS = 4.
  ...[LOCAL_GET, S0, LOCAL_GET, S0 + 1, ...F32X4_ADD, LOCAL_GET, S0 + 2, LOCAL_GET, S0 + 3, ...F32X4_ADD],
  ...[...F32X4_ADD, LOCAL_SET, S0],
  ...[...lane(0), ...lane(1), F32_ADD, ...lane(2), ...lane(3), F32_ADD, F32_ADD],
  END,
];

const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  ...section(1, [1, 0x60, 3, I32, I32, I32, 1, F32]), // type 0: (i32, i32, i32) → f32
  ...section(2, [1, ...name('m'), ...name('mem'), 0x02, 0x00, 0x01]), // import memory, min 1 page
  ...section(3, [1, 0]), // function 0 has type 0
  ...section(7, [1, ...name('dot'), 0x00, 0]), // export function 0 as "dot"
  ...section(10, [1, ...uleb(BODY.length), ...BODY]),
]);

const PAGE_FLOATS = 65536 / 4;

/**
 * The part of the `WebAssembly` global used here, typed locally: pure code is checked against
 * libraries that do not all declare it (Node's types do not), and some engines do not have it.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmGlobal {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as { WebAssembly?: WasmGlobal }).WebAssembly;

let compiled: object | null | undefined;
/** The compiled module, or null where Wasm SIMD cannot run here (checked once per realm). */
function simdModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm?.validate(MODULE) ? new wasm.Module(MODULE) : null;
    } catch {
      compiled = null; // e.g. compiling WebAssembly forbidden by a Content-Security-Policy
    }
  }
  return compiled;
}

class SimdKernel implements DotKernel {
  readonly kind = 'simd';
  private readonly memory: WasmMemory;
  readonly dot: (a: number, b: number, n: number) => number;
  f32: Float32Array;

  constructor(api: WasmGlobal, module: object, floats: number) {
    this.memory = new api.Memory({ initial: Math.max(1, Math.ceil(floats / PAGE_FLOATS)) });
    const instance = new api.Instance(module, { m: { mem: this.memory } });
    this.dot = instance.exports.dot as (a: number, b: number, n: number) => number;
    this.f32 = new Float32Array(this.memory.buffer);
  }

  reserve(floats: number): void {
    if (floats <= this.f32.length) return;
    this.memory.grow(Math.ceil((floats - this.f32.length) / PAGE_FLOATS));
    this.f32 = new Float32Array(this.memory.buffer);
  }
}

class JsKernel implements DotKernel {
  readonly kind = 'js';
  f32: Float32Array;

  constructor(floats: number) {
    this.f32 = new Float32Array(floats);
  }

  reserve(floats: number): void {
    if (floats <= this.f32.length) return;
    const grown = new Float32Array(Math.max(floats, this.f32.length * 2));
    grown.set(this.f32);
    this.f32 = grown;
  }

  readonly dot = (a: number, b: number, n: number): number => {
    const x = this.f32;
    // Four independent sums let the JIT pipeline the loop; n is a multiple of DOT_BLOCK.
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k < n; k += 4) {
      s0 += x[a + k] * x[b + k];
      s1 += x[a + k + 1] * x[b + k + 1];
      s2 += x[a + k + 2] * x[b + k + 2];
      s3 += x[a + k + 3] * x[b + k + 3];
    }
    return s0 + s1 + (s2 + s3);
  };
}

/**
 * A kernel with memory for at least `floats` floats (all zero). `simd: false` forces the JS kernel
 * (the tests run both).
 */
export function createDotKernel(floats: number, options: { simd?: boolean } = {}): DotKernel {
  const module = options.simd === false ? null : simdModule();
  return wasm && module ? new SimdKernel(wasm, module, floats) : new JsKernel(floats);
}

/** Rounds a length up to a whole number of DOT_BLOCKs. */
export const padToDotBlock = (n: number): number => Math.ceil(n / DOT_BLOCK) * DOT_BLOCK;
