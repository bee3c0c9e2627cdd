/**
 * The microphone as the scorer needs it: echo cancellation, noise suppression and auto gain off,
 * because each of them reshapes pitch and loudness, the very things the AI service measures.
 */
export const MIC_CONSTRAINTS: MediaStreamConstraints = {
  audio: {
    echoCancellation: false,
    noiseSuppression: false,
    autoGainControl: false,
    channelCount: { ideal: 1 },
  },
  video: false,
};

export class MicrophoneError extends Error {
  readonly code = 'MIC_UNAVAILABLE';
  constructor(
    message: string,
    readonly reason: 'denied' | 'missing' | 'busy' | 'unsupported',
  ) {
    super(message);
    this.name = 'MicrophoneError';
  }
}

/** Opens the microphone; turns the browser's DOMExceptions into messages a learner can act on. */
export async function openMicrophone(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new MicrophoneError('此浏览器无法录音，请使用最新版 Chrome、Edge 或 Safari。', 'unsupported');
  }
  try {
    return await navigator.mediaDevices.getUserMedia(MIC_CONSTRAINTS);
  } catch (e) {
    const name = e instanceof DOMException ? e.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') {
      throw new MicrophoneError('麦克风权限被拒绝，请在浏览器地址栏允许使用麦克风后重试。', 'denied');
    }
    if (name === 'NotFoundError' || name === 'OverconstrainedError') {
      throw new MicrophoneError('没有找到麦克风，请连接麦克风后重试。', 'missing');
    }
    throw new MicrophoneError('麦克风被其他程序占用，请关闭后重试。', 'busy');
  }
}

/** Microphone → worklet latency in seconds, when the browser reports it. */
export function inputLatencyOf(stream: MediaStream, context?: AudioContext): number {
  const settings = stream.getAudioTracks()[0]?.getSettings() as MediaTrackSettings & { latency?: number };
  if (typeof settings?.latency === 'number' && Number.isFinite(settings.latency)) return settings.latency;
  return context?.baseLatency ?? 0;
}
