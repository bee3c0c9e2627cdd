import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './001-initial';
import { runs } from './003-runs';
import { uploadUsage } from './004-upload-usage';
import { qrPickup } from './005-qr-pickup';
import { filmBackground } from './006-film-background';
import { dubRenders } from './007-dub-renders';
import { historyScale } from './008-history-scale';
import { sessionLinks } from './009-session-links';
import { renderQueue } from './010-render-queue';
import { takeSpeech } from './011-take-speech';
import { voiceWarmup } from './012-voice-warmup';
import { filmLanguage } from './013-film-language';
import { loginAddresses } from './014-login-addresses';
import { shareRevocation } from './015-share-revocation';
import { runDubbing } from './016-run-dubbing';
import { latestAnswerIndex } from './017-latest-answer-index';
import { latestAnswerCover } from './018-latest-answer-cover';

/**
 * Migrations are listed in code (not read from a folder at run time) so they work the same under
 * tsx, in tests and in a bundled build. Add new ones at the end with the next number.
 */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '003-runs': runs,
  '004-upload-usage': uploadUsage,
  '005-qr-pickup': qrPickup,
  '006-film-background': filmBackground,
  '007-dub-renders': dubRenders,
  '008-history-scale': historyScale,
  '009-session-links': sessionLinks,
  '010-render-queue': renderQueue,
  '011-take-speech': takeSpeech,
  '012-voice-warmup': voiceWarmup,
  '013-film-language': filmLanguage,
  '014-login-addresses': loginAddresses,
  '015-share-revocation': shareRevocation,
  '016-run-dubbing': runDubbing,
  '017-latest-answer-index': latestAnswerIndex,
  '018-latest-answer-cover': latestAnswerCover,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
