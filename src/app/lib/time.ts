/**
 * mm:ss → seconds for subtitle windows. The one implementation lives with the pure audio code
 * (`src/audio/dsp/time.ts`, shared with the encoder worker and the server); the app re-exports it so
 * screens import time helpers from `app/lib`.
 */
export { mmssToSeconds, secondsToMmss, TimeFormatError } from '../../audio/dsp/time';
