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

/** Why the microphone cannot be used; the page words each reason for the learner (never this code's text). */
export type MicrophoneReason = 'denied' | 'missing' | 'busy' | 'unsupported';

const DESCRIPTION: Record<MicrophoneReason, string> = {
  denied: 'microphone permission denied',
  missing: 'no microphone found',
  busy: 'microphone in use by another program',
  unsupported: 'this browser has no getUserMedia',
};

/** The microphone could not be opened: `reason` says why; the message is for the log. */
export class MicrophoneError extends Error {
  readonly code = 'MIC_UNAVAILABLE';
  constructor(
    readonly reason: MicrophoneReason,
    cause?: unknown,
  ) {
    super(`Microphone unavailable: ${DESCRIPTION[reason]}`, { cause });
    this.name = 'MicrophoneError';
  }
}

/** Opens the microphone; turns the browser's DOMExceptions into a MicrophoneError with its reason. */
export async function openMicrophone(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError('unsupported');
  try {
    return await navigator.mediaDevices.getUserMedia(MIC_CONSTRAINTS);
  } catch (e) {
    const name = e instanceof DOMException ? e.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') throw new MicrophoneError('denied', e);
    if (name === 'NotFoundError' || name === 'OverconstrainedError') throw new MicrophoneError('missing', e);
    throw new MicrophoneError('busy', e);
  }
}

/** Microphone → worklet latency in seconds, when the browser reports it. */
export function inputLatencyOf(stream: MediaStream, context?: AudioContext): number {
  const settings = stream.getAudioTracks()[0]?.getSettings() as MediaTrackSettings & { latency?: number };
  if (typeof settings?.latency === 'number' && Number.isFinite(settings.latency)) return settings.latency;
  return context?.baseLatency ?? 0;
}
