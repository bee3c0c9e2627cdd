/**
 * What the services answer a request in words: input refusals, upload checks, sign-in states, the
 * transport's refusals. Ids and the values each reads here, the words in server-messages.zh.ts and
 * server-messages.en.ts (the message syntax of format.ts), worded by server-text.ts; listed for
 * review in docs/statements.*.md.
 * The error rows the client words by id (errors.ts) stay apart: these are worded by the server, in
 * the language the request asks for (server/lib/words.ts), and never ship in the app's bundle.
 */
export const SERVER_MESSAGES = {
  // A request input that its schema refuses (server/lib/validate.ts): the field, then the problem.
  'input.invalid': ['field', 'problem'],
  'input.tooDeep': ['limit'],
  'input.tooMany': ['limit'],
  'input.nul': [],
  'input.required': [],
  'input.mustBe': ['type'],
  'input.between': ['min', 'max'],
  'input.atMost': ['max'],
  'input.atLeast': ['min'],
  'input.outOfRange': [],
  'input.maxChars': ['limit'],
  'input.minChars': ['limit'],
  'input.notEmpty': [],
  'input.maxItems': ['limit'],
  'input.minItems': ['limit'],
  'input.tooBig': ['limit'],
  'input.tooSmall': ['limit'],
  'input.oneOf': ['options'],
  'input.format': ['format'],
  'input.multipleOf': ['divisor'],
  'input.unknownFields': ['keys'],
  'input.invalidValue': [],
  /** The contract's own field messages (src/api/contract names these ids). */
  'input.enterAccount': [],
  'input.enterPassword': [],
  'input.idOrRunId': [],
  'input.qrCode': [],

  // Answers to a film's questions (server/films/answers.ts).
  'answers.unknownQuestion': ['id'],
  'answers.answeredTwice': ['id'],
  'answers.textExpected': [],
  'answers.oneOption': [],
  'answers.duplicateOption': [],
  'answers.noSuchOption': ['id'],
  'answers.required': ['index'],
  'answers.saved': [],

  // An uploaded take (server/ai/audio-check.ts, speech-emotion-route.ts, takes/retention.ts).
  'upload.notMultipart': [],
  'upload.noFile': [],
  'upload.notWav': [],
  'upload.truncatedHeader': [],
  'upload.noFormat': [],
  'upload.noAudio': [],
  'upload.encoding': ['detail'],
  'upload.badBlockAlign': ['detail'],
  'upload.empty': [],
  'upload.channels': ['channels'],
  'upload.rate': ['rate', 'accepted'],
  'upload.encodingGot': ['kind', 'bits', 'tag'],
  'upload.noSamples': [],
  'upload.tooShort': ['seconds', 'min'],
  'upload.tooLong': ['seconds', 'max'],
  'upload.nonFinite': ['count'],
  'upload.dailyLimit': ['mb'],
  'scoring.queued': [],
  'ai.unavailable': [],

  // The dubbed video (server/renders).
  'render.yourQueue': ['count'],
  'render.queueFull': [],
  'render.storageUsed': ['mb'],
  'render.failed': ['detail'],

  // Media downloads (server/routes/producer/media.ts, server/lib/stream-slots.ts).
  'media.notFound': [],
  'media.linkExpired': [],
  'media.badRange': [],
  'media.tooManyStreams': [],

  // Signing in and out (server/routes/producer/account.ts, h5-qr.ts).
  'account.signedIn': [],
  'account.signedOut': [],
  'report.shareRevoked': [],
  'account.signedOutEverywhere': [],
  'account.signedOutHere': [],
  'qrState.waiting': [],
  'qrState.scanned': [],
  'qrState.confirmed': [],
  'qrState.expired': [],
  'qrState.cancelled': [],
  'qrState.unknown': [],
  'qrLogin.cannotConfirm': ['state'],
  'qrLogin.cannotCancel': ['state'],
  'qrLogin.confirmed': [],
  'qrLogin.cancelled': [],

  // The transport's refusals (server/plugins/errors.ts, not-found.ts, health.ts, server/app.ts).
  'request.noBoundary': [],
  'request.badMultipart': [],
  'request.badJson': [],
  'request.forbiddenPath': [],
  'request.invalid': ['detail'],
  'request.badUrl': [],
  'request.malformed': [],
  'request.timeout': [],
  'request.headersTooLarge': [],
  'request.noSuchCall': ['method', 'path'],
  'request.tooMany': ['seconds'],
  'health.degraded': [],
  'health.notReady': [],
} as const satisfies Record<string, readonly string[]>;

export type ServerMessageId = keyof typeof SERVER_MESSAGES;

export const SERVER_MESSAGE_IDS = Object.keys(SERVER_MESSAGES) as ServerMessageId[];

export const isServerMessageId = (id: unknown): id is ServerMessageId =>
  typeof id === 'string' && Object.hasOwn(SERVER_MESSAGES, id);
