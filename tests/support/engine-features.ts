/**
 * What the product leans on that differs by engine (docs/browsers.md is written from these lines):
 * the microphone and the capture path, the clip's frame clock, the context clock, the Wasm SIMD kernel
 * (src/audio/dsp/dot.ts; the module is the smallest one using a v128 instruction), MediaRecorder's
 * audio types and storage. Prototypes only: no AudioContext is made, so nothing here changes a page.
 */
export const ENGINE_FEATURES = `(() => ({
  audioWorklet: typeof AudioWorkletNode === 'function',
  getUserMedia: typeof navigator.mediaDevices?.getUserMedia === 'function',
  requestVideoFrameCallback: 'requestVideoFrameCallback' in HTMLVideoElement.prototype,
  getOutputTimestamp: typeof AudioContext === 'function' && 'getOutputTimestamp' in AudioContext.prototype,
  outputLatency: typeof AudioContext === 'function' && 'outputLatency' in AudioContext.prototype,
  wasmSimd: WebAssembly.validate(new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,96,0,1,123,3,2,1,0,10,10,1,8,0,65,0,253,15,253,98,11])),
  mediaRecorder: typeof MediaRecorder === 'function'
    ? ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'].filter((t) => MediaRecorder.isTypeSupported(t))
    : [],
  indexedDB: typeof indexedDB === 'object',
  moduleWorker: typeof Worker === 'function',
}))()`;
