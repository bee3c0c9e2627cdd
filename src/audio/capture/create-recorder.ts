import { chooseRecorderKind, type Recorder } from './recorder';

/** Opens the microphone and builds the recorder this browser (or `?recorder=`) calls for. */
export async function createRecorder(search = location.search): Promise<Recorder> {
  if (chooseRecorderKind(search) === 'polyfill') {
    const { PolyfillRecorder } = await import('./polyfill-recorder');
    return PolyfillRecorder.create();
  }
  const { WorkletRecorder } = await import('./worklet-recorder');
  return WorkletRecorder.create();
}
