/**
 * Every learner-facing statement the app, the H5 page and the server's answers share: its id and
 * the values it reads. The words live in one file per language (statements.zh.ts, statements.en.ts,
 * the message syntax of format.ts); `npm run statements` lists them in docs/statements.*.md.
 *
 * Code never builds or parses a sentence: scoring, the sound suggestion and the report return facts
 * (`Fact`: an id and its values), and `word()` turns a fact into the learner's language.
 */
export const STATEMENTS = {
  // Emotion names and score areas, read as values of other statements.
  'emotion.anger': [],
  'emotion.boredom': [],
  'emotion.disgust': [],
  'emotion.fear': [],
  'emotion.happiness': [],
  'emotion.sadness': [],
  'emotion.neutral': [],
  'emotion.unclear': [],
  'area.emotion': [],
  'area.intonation': [],
  'area.energy': [],
  'area.timing': [],
  'area.quality': [],
  'area.words': [],

  // One take (the tips beside a scored line). Each names one measured quantity.
  'take.noSpeech': [],
  'take.tooQuiet': ['peakPercent'],
  'take.clipped': ['clippedPercent'],
  'take.noisy': ['snrDb'],
  'take.emotion.moreEnergy': ['learner', 'goal', 'source', 'target'],
  'take.emotion.lessEnergy': ['learner', 'goal', 'source', 'target'],
  'take.emotion.lands': ['learner', 'goal', 'source', 'target', 'heard'],
  'take.emotion.notYet': ['learner', 'goal', 'source', 'target', 'heard'],
  'take.emotion.heard': ['heard', 'confidence'],
  'take.emotion.heardName': ['heard'],
  'take.pitch.narrower': ['learner', 'actor'],
  'take.pitch.wider': ['learner', 'actor'],
  'take.pitch.flat': ['learner'],
  'take.pitch.ending': ['actorDirection', 'actorSt', 'learnerDirection', 'learnerSt'],
  'take.pitch.shape': ['gapSt'],
  'take.loudness.narrower': ['learner', 'actor'],
  'take.loudness.wider': ['learner', 'actor'],
  'take.loudness.flat': ['learner'],
  'take.loudness.stress': ['gapDb'],
  'take.pace.slower': ['learnerSeconds', 'actorSeconds'],
  'take.pace.faster': ['learnerSeconds', 'actorSeconds'],
  'take.pace.slowAlone': ['rate'],
  'take.pace.fastAlone': ['rate'],
  'take.start.late': ['seconds'],
  'take.start.early': ['seconds'],
  'take.pauses.missing': ['count', 'at'],
  'take.pauses.extra': ['count'],
  'take.good.melody': ['gapSt'],
  'take.good.pace': ['learnerSeconds', 'actorSeconds'],
  'take.good.loudness': ['learner', 'actor'],
  'take.good.pitchAlone': ['learner'],
  'take.good.loudnessAlone': ['learner'],
  'take.deliveryNote': [],
  /** The emotion reading of a take read cold (`emotion.voiceTakes` 0): nothing of the learner's voice known. */
  'take.readCold': [],
  /** Beside the emotion reading: what the take's energy was compared with (`emotion.voiceTakes` 0 or more). */
  'take.against.typical': [],
  'take.against.own': [],
  /** The report's scene arc over a run's lines (src/audio/scoring/emotion-match.ts, sceneArc, arcVerdict). */
  'report.arc.follows': ['score'],
  'report.arc.against': ['score'],

  // The voice warm-up before the first dub (src/app/features/dub/voice-warmup.tsx).
  'warmup.title': [],
  'warmup.why': [],
  'warmup.line': [],
  'warmup.record': [],
  'warmup.stop': [],
  'warmup.skip': [],
  'warmup.saving': [],
  'warmup.done': [],
  'warmup.skipped': [],
  'warmup.retry': ['reason'],
  'warmup.reason.noSpeech': [],
  'warmup.reason.other': [],
  'warmup.failed': [],
  /** The line's row when the take held no speech. */
  'take.row.noSpeech': [],

  // A take resynthesised with the actor's melody (src/audio/scoring/melody.ts): its three versions.
  'melody.versions': [],
  'melody.actor': [],
  'melody.take': [],
  'melody.yours': [],
  /** Why there is no melody version (the reasons of the contract's `melodyVersion`). */
  'melody.take_too_little_voiced': [],
  'melody.actor_too_little_voiced': [],
  /** Watch my dub's choice: the melody versions in place of the takes. */
  'melody.watchOption': [],
  /** Watch my dub's seek bar: where in the clip it plays (its accessible name). */
  'watchDub.seek': [],

  // The sound suggestion over a film's lines (get_sounds_interpretation), one statement per line.
  /** A line of the newline-separated answer: the topic, then the statement. */
  'suggest.line': ['topic', 'text'],
  'topic.overall': [],
  'topic.range': [],
  'topic.melody': [],
  'topic.energy': [],
  'topic.pace': [],
  'topic.emotion': [],
  'topic.progress': [],
  'topic.practice': [],
  'suggest.none': ['totalLines'],
  'suggest.allSilent': ['dubbedLines'],
  'suggest.overallSilent': ['dubbedLines', 'totalLines', 'silent', 'scoredLines', 'average'],
  'suggest.overall': ['scoredLines', 'totalLines', 'average'],
  'suggest.range.alone': ['learner', 'flat'],
  'suggest.range': ['learner', 'actor', 'verdict'],
  'suggest.melody.scoreOnly': ['score'],
  'suggest.melody': ['gapSt', 'score', 'ends', 'withEnds'],
  'suggest.energy.alone': ['learner', 'score'],
  'suggest.energy': ['learner', 'actor', 'verdict', 'score'],
  'suggest.pace': ['ratio', 'verdict'],
  'suggest.emotion': ['targeted', 'passed', 'pass', 'rate', 'gaps', 'near', 'weak', 'strong', 'slip'],
  'suggest.emotion.slip': ['target', 'heard', 'count'],
  'suggest.progress.none': [],
  'suggest.progress': ['lines', 'direction', 'change', 'area', 'areaChange', 'better'],
  'suggest.practice': ['area', 'average', 'exercise', 'example'],
  'suggest.practice.example': ['index', 'text', 'tip'],
  'exercise.emotion': [],
  'exercise.intonation': [],
  'exercise.energy': [],
  'exercise.timing': [],
  'exercise.quality': [],

  // The report's strengths and its one thing to practise.
  'report.answers.high': ['percent'],
  'report.answers.some': ['which', 'right', 'scored', 'prompt'],
  'report.answers.gain': ['gain', 'before', 'after'],
  'report.strongest': ['area', 'average'],
  'report.secondTakes': ['gain'],
  'report.emotionMatch': ['percent'],
  'report.practice.area': ['area', 'average', 'how'],
  'report.practice.question': ['index', 'prompt'],
  'practice.emotion': [],
  'practice.intonation': [],
  'practice.energy': [],
  'practice.timing': [],
  'practice.quality': [],

  // The shared report page (H5), read on a phone without login.
  'h5.reportTitle': ['film'],
  'h5.part': ['part'],
  'h5.learner': [],
  'h5.date': [],
  'h5.timeSpent': [],
  'h5.duration': ['minutes', 'seconds'],
  'h5.answers': [],
  'h5.notScored': [],
  'h5.notAnswered': [],
  'h5.dubbing': ['scored', 'total'],
  'h5.secondTakes': ['direction', 'change'],
  'h5.emotionMatch': ['percent'],
  'h5.emotionAverage': ['average'],
  'h5.silentLines': ['silent'],
  'h5.recording': [],
  'h5.myDub': [],
  'h5.bestLine': ['line'],
  'h5.dubRendering': [],
  'h5.dubFailed': [],
  'h5.dubQueueFull': [],
  'h5.strengths': [],
  'h5.practiceNext': [],
  'h5.expired.title': [],
  'h5.expired.body': [],
  'h5.invalid.title': [],
  'h5.invalid.body': [],
  'h5.gone.title': [],
  'h5.gone.body': [],
  'h5.revoked.title': [],
  'h5.revoked.body': [],
  'h5.videoMissing.title': [],
  'h5.videoMissing.body': [],

  // The phone's page that confirms a QR sign-in on the computer.
  'qr.title': [],
  'qr.heading': [],
  'qr.explain': ['product'],
  'qr.signInAs': ['nickname', 'account'],
  'qr.account': [],
  'qr.password': [],
  'qr.confirm': [],
  'qr.cancel': [],
  'qr.invalid': [],
  'qr.expired': [],
  'qr.wasCancelled': [],
  'qr.wasConfirmed': [],
  'qr.confirmed': [],
  'qr.cancelled': [],
  'qr.keepSignedIn': [],
  'qr.endsWithComputer': [],
  'qr.notYou': [],
  'qr.signOutEverywhere': [],

  // The words of a take (src/audio/scoring/words-summary.ts; the line marked word by word,
  // src/app/ui/line-words.tsx and server/h5/words.ts). `said` counts every word heard, `off` too.
  'words.subScore': ['score'],
  'words.suggestHeading': [],
  'words.suggestLine': ['index'],
  'words.summary': ['said', 'total', 'missedCount', 'missed', 'offCount', 'off'],
  'words.otherLine': [],
  'words.noneClear': ['total'],
  'words.notChecked.language': ['language'],
  'words.notChecked.engine': ['language'],
  'words.notChecked.failed': [],
  'words.notChecked.noText': [],
  'words.missed': [],
  'words.off': [],
  'words.play': ['word'],
} as const satisfies Record<string, readonly string[]>;

export type StatementId = keyof typeof STATEMENTS;
export type ParamName<Id extends StatementId> = (typeof STATEMENTS)[Id][number];

/** A word in both languages (a question's prompt, a film's line): a value a fact can carry as is. */
export interface Localized {
  zh: string;
  en: string;
}

/** A value of a fact: a figure, a choice of a select, another fact (worded first) or both words. */
export type FactValue = string | number | Localized | Fact;

/** One statement with the values it reads. */
export interface FactOf<Id extends StatementId> {
  id: Id;
  values?: { readonly [K in ParamName<Id>]: FactValue };
}

/** A statement as code returns it: which one, and the measured values it reads (one of them). */
export type Fact<Id extends StatementId = StatementId> = Id extends StatementId ? FactOf<Id> : never;

/** Builds a fact with its values checked against the statement's declared names. */
export function fact<Id extends StatementId>(
  id: Id,
  ...values: ParamName<Id> extends never ? [] : [{ readonly [K in ParamName<Id>]: FactValue }]
): FactOf<Id> {
  return values.length ? { id, values: values[0] } : { id };
}
