/**
 * The parts of AudioWorkletGlobalScope the capture processor uses. TypeScript ships no lib for it
 * (microsoft/TypeScript-DOM-lib-generator#1208), so this file declares them.
 */
declare const currentFrame: number;
declare const currentTime: number;
declare const sampleRate: number;

interface AudioWorkletProcessorOptions {
  numberOfInputs?: number;
  numberOfOutputs?: number;
  processorOptions?: unknown;
}

declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: AudioWorkletProcessorOptions);
}

declare function registerProcessor(
  name: string,
  processorCtor: new (
    options: AudioWorkletProcessorOptions,
  ) => AudioWorkletProcessor & {
    process(
      inputs: Float32Array[][],
      outputs: Float32Array[][],
      parameters: Record<string, Float32Array>,
    ): boolean;
  },
): void;
