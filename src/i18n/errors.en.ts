import type { ErrorId } from './errors';

/** The error rows in English (src/i18n/errors.ts): loaded with the app's English messages. */
export const errorsEn: Record<ErrorId, string> = {
  'error.badCredentials': 'Wrong account or password',
  'error.loginExpired': 'Your login has expired',
  'error.loginAgain': 'Your login has expired: log in again',
  'error.network': 'Network error: check your connection',
  'error.server': 'Server error, please try again later',
  'error.networkLater': 'Network error, please try again later',
  'error.default': 'Server error, please try again later',
  'error.aborted': 'Request cancelled',
  'error.badRequest': 'The request was not accepted: check it and try again',
  'error.forbidden': 'You have no access to this',
  'error.notFound': 'Not found',
  'error.filmNotFound': 'Film not found',
  'error.lineNotFound': 'This line does not exist',
  'error.attemptsUsed': 'Both takes of this line are recorded; it cannot be recorded again',
  'error.runNotFound': 'Training record not found',
  'error.reportNotFound': 'Report not found',
  'error.noPartTwoRun': 'No part-two training yet: answer the questions and dub first',
  'error.noTakes': 'No dubbing yet: dub a line first',
  'error.tooLarge': 'The upload is too large',
  'error.unsupportedMedia': 'This file type is not supported',
  'error.rateLimited': 'Too many failed sign-ins: try again in {minutes} min',
  'error.busy': 'The server is busy, please try again shortly',
  'error.scoringBusy': 'Scoring is busy: your take will be scored shortly',
  'error.enterCredentials': 'Enter your account and password',
};
