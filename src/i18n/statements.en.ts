import type { StatementId } from './statements';

/** Every statement in English (the syntax of format.ts). Reviewed as docs/statements.en.md. */
export const statementsEn: Record<StatementId, string> = {
  'emotion.anger': 'anger',
  'emotion.boredom': 'boredom',
  'emotion.disgust': 'disgust',
  'emotion.fear': 'fear',
  'emotion.happiness': 'happiness',
  'emotion.sadness': 'sadness',
  'emotion.neutral': 'neutral',
  'emotion.unclear': 'no clear emotion heard',
  'area.emotion': 'emotion',
  'area.intonation': 'intonation',
  'area.energy': 'stress',
  'area.timing': 'timing',
  'area.quality': 'recording quality',
  'area.words': 'words',

  'take.noSpeech':
    'No speech heard — record again: check the microphone is on and 15–30 cm from your mouth, and speak the line while the subtitle shows.',
  'take.tooQuiet':
    'Too quiet: your loudest moment reaches only {peakPercent, number, ::.#}% of the level limit. Move closer or raise the input volume and record again.',
  'take.clipped':
    'The recording distorts: {clippedPercent, number, ::.0#}% of it hits the level limit. Move back or lower the input volume.',
  'take.noisy':
    'Background noise is high: your voice is only {snrDb, number, ::.} dB louder than the noise. Record somewhere quieter.',
  'take.emotion.moreEnergy':
    "Put more intensity into it: your intensity is {learner, number, ::.}, {source, select, actor {the actor's} other {{target} is usually}} {goal, number, ::.} (0 is flattest, 100 most intense). Say the stressed words louder and with more drive.",
  'take.emotion.lessEnergy':
    "Too intense: your intensity is {learner, number, ::.}, {source, select, actor {the actor's} other {{target} is usually}} {goal, number, ::.} (0 is flattest, 100 most intense). Soften and slow down a little.",
  'take.emotion.lands':
    "Your intensity is right: it is {learner, number, ::.}, {source, select, actor {the actor's} other {{target} is usually}} {goal, number, ::.} (0 is flattest, 100 most intense); {heard}.",
  'take.emotion.notYet':
    "Your intensity is right but the emotion does not come across yet: it is {learner, number, ::.}, {source, select, actor {the actor's} other {{target} is usually}} {goal, number, ::.} (0 is flattest, 100 most intense), {source, select, actor {yet it is not heard as the same emotion as the actor's} other {yet it does not sound like {target}}}; {heard}. Play the feeling itself, not only its strength.",
  'take.emotion.heard': 'it sounds like {heard} ({confidence, number, ::percent} sure)',
  'take.emotion.heardName': 'it sounds like {heard}',
  'take.pitch.narrower':
    "Your voice moves less than the actor's: {learner, number, ::.0} semitones between your highest and lowest notes, the actor {actor, number, ::.0}. Lift the stressed words so the line rises and falls.",
  'take.pitch.wider':
    "Your voice moves more than the actor's: {learner, number, ::.0} semitones between your highest and lowest notes, the actor {actor, number, ::.0}. Rein it in so not every word jumps.",
  'take.pitch.flat':
    'Your voice sounds flat: only {learner, number, ::.0} semitones between your highest and lowest notes. Lift the key words so the line rises and falls.',
  'take.pitch.ending':
    "At the end the actor's voice {actorDirection, select, rise {rises} other {falls}} {actorSt, number, ::.0} semitones and yours {learnerDirection, select, rise {rises} other {falls}} {learnerSt, number, ::.0}. Let your last word {actorDirection, select, rise {rise} other {fall}} too.",
  'take.pitch.shape':
    "Your melody takes a different path: after lining up with the actor your pitch is {gapSt, number, ::.0} semitones away on average. Hum the actor's tune first, then add the words.",
  'take.loudness.narrower':
    "Not enough contrast: your loudness moves {learner, number, ::.} dB, the actor's {actor, number, ::.} dB. Say the stressed words louder and the rest softer.",
  'take.loudness.wider':
    "Your loudness jumps around: it moves {learner, number, ::.} dB, the actor's {actor, number, ::.} dB. Keep the level steadier.",
  'take.loudness.flat':
    'Not enough contrast: your loudness moves only {learner, number, ::.} dB. Say the stressed words louder and the rest softer.',
  'take.loudness.stress':
    "Your stress falls on other words than the actor's: lined up, your loudness is {gapDb, number, ::.} dB away on average. Listen for the actor's loudest words and stress the same ones.",
  'take.pace.slower':
    'You read slower than the actor: you took {learnerSeconds, number, ::.0} s, the actor {actorSeconds, number, ::.0} s. Keep the words flowing and shorten drawn-out sounds.',
  'take.pace.faster':
    'You read faster than the actor: you took {learnerSeconds, number, ::.0} s, the actor {actorSeconds, number, ::.0} s. Slow down and give the key words room.',
  'take.pace.slowAlone': 'Slow pace: {rate, number, ::.0} syllables a second. Keep the words flowing.',
  'take.pace.fastAlone':
    'Fast pace: {rate, number, ::.0} syllables a second. Slow down and say each word clearly.',
  'take.start.late':
    'You started late: {seconds, number, ::.0} s after the actor. Begin as soon as the subtitle appears.',
  'take.start.early': 'You started early: {seconds, number, ::.0} s before the actor. Wait for the subtitle.',
  'take.pauses.missing':
    'Missing pauses: the actor pauses at {at} of the line and you skip {count, plural, one {# of them} other {# of them}}. Pause in the same places.',
  'take.pauses.extra':
    'Extra pauses: you pause {count, plural, one {once} other {# times}} more than the actor. Say the line in one breath.',
  'take.good.melody':
    "Your melody is close to the actor's: lined up, your pitch is only {gapSt, number, ::.0} semitones away on average. Keep it.",
  'take.good.pace':
    'Your pace is close: you took {learnerSeconds, number, ::.0} s, the actor {actorSeconds, number, ::.0} s.',
  'take.good.loudness':
    "Good contrast: your loudness moves {learner, number, ::.} dB, the actor's {actor, number, ::.} dB.",
  'take.good.pitchAlone':
    'The line has a melody: {learner, number, ::.0} semitones between your highest and lowest notes.',
  'take.good.loudnessAlone': 'Clear contrast: your loudness moves {learner, number, ::.} dB.',
  'take.deliveryNote':
    "Melody, stress and timing measure how closely you follow the actor's way of saying the line, not the emotion itself.",
  'take.row.noSpeech': 'No speech heard — record again',
  'melody.versions': 'Hear the line three ways',
  'melody.actor': 'The actor',
  'melody.take': 'Your take',
  'melody.yours': "Your voice with the actor's melody",
  'melody.take_too_little_voiced': 'Not enough voiced speech to resynthesise',
  'melody.actor_too_little_voiced': "The actor's line has too little voiced speech to take its melody from",
  'melody.watchOption': "With the actor's melody",
  'watchDub.seek': 'Position in the clip',
  'take.readCold':
    'The app has not heard your everyday voice yet, so your intensity is compared with voices in general. After the voice warm-up or a few takes it is read against your own voice.',
  'take.against.typical': 'Compared with typical voices',
  'take.against.own': 'Compared with your own voice',
  'report.arc.follows':
    'The arc follows the scene ({score, number, ::.} of 100): from line to line your intensity rises and falls with the actor’s, each measured against your own voice.',
  'report.arc.against':
    'The arc does not follow the scene ({score, number, ::.} of 100): from line to line your intensity moves differently from the actor’s. Where the actor gets more intense, do the same.',

  'warmup.title': 'Voice warm-up',
  'warmup.why':
    'Read the line below in your normal voice (a few seconds). The app then reads your first takes against your own voice instead of voices in general. You can skip it: your first takes are then compared with voices in general.',
  'warmup.line': 'Today I am reading a few lines from a film, calmly and clearly.',
  'warmup.record': 'Record the warm-up',
  'warmup.stop': 'Stop',
  'warmup.skip': 'Skip',
  'warmup.saving': 'Listening…',
  'warmup.done': 'Thanks: your first takes will be read against your own voice.',
  'warmup.skipped': 'Skipped: your first takes are compared with voices in general.',
  'warmup.retry': '{reason} Record again or skip.',
  'warmup.reason.noSpeech': 'No voice was heard in the recording.',
  'warmup.reason.other': 'The recording could not be used.',
  'warmup.failed': 'The warm-up could not be sent. Record again or skip.',

  'suggest.line': '{topic}: {text}',
  'topic.overall': 'Overall',
  'topic.range': 'Pitch movement',
  'topic.melody': 'Intonation',
  'topic.energy': 'Stress',
  'topic.pace': 'Timing',
  'topic.emotion': 'Emotion',
  'topic.progress': 'Progress',
  'topic.practice': 'Practise next',
  'suggest.none':
    "You have not dubbed any of this film's {totalLines} lines yet: record a few and your voice analysis will appear here.",
  'suggest.allSilent':
    'No speech was heard in your {dubbedLines} recorded {dubbedLines, plural, one {line} other {lines}}: check the microphone and record again.',
  'suggest.overallSilent':
    '{dubbedLines}/{totalLines} lines dubbed; no speech was heard in {silent, plural, one {# of them} other {# of them}}, so record {silent, plural, one {it} other {them}} again; the {scoredLines} with speech average {average, number, ::.}.',
  'suggest.overall': '{scoredLines}/{totalLines} lines dubbed, average {average, number, ::.}.',
  'suggest.range.alone':
    'Typically {learner, number, ::.0} semitones from your lowest to your highest note in a line, {flat, select, yes {rather flat, so emotion is hard to hear} other {enough movement to carry emotion}}.',
  'suggest.range':
    "Typically {learner, number, ::.0} semitones from your lowest to your highest note in a line, against the actor's {actor, number, ::.0}, {verdict, select, narrower {less than the actor, so you sound flatter} wider {more than the actor, a little exaggerated} other {in line with the actor}}.",
  'suggest.melody.scoreOnly': 'Your intonation score averages {score, number, ::.}.',
  'suggest.melody':
    "Lined up with the actor your pitch is {gapSt, number, ::.0} semitones away on average, intonation score {score, number, ::.}{withEnds, plural, =0 {} other {{ends, plural, =0 {; all {withEnds} line endings rise or fall the way the actor's do} other {; in {ends} of {withEnds} lines your ending goes the other way from the actor's}}}}.",
  'suggest.energy.alone':
    'Your loudest and quietest words are typically {learner, number, ::.} dB apart in a line; stress score {score, number, ::.} on average.',
  'suggest.energy':
    "Your loudest and quietest words are typically {learner, number, ::.} dB apart in a line, the actor's {actor, number, ::.} dB, {verdict, select, narrower {less contrast than the actor} wider {more swing than the actor} other {contrast close to the actor's}} (stress score {score, number, ::.}).",
  'suggest.pace':
    "You take {ratio, number, ::.0#} times the actor's time for a line, {verdict, select, slower {slower than the actor} faster {faster than the actor} other {about the actor's pace}}.",
  'suggest.emotion':
    '{passed} of {targeted} lines reach an emotion score of {pass} ({rate, number, ::percent}){gaps, select, yes {; against the target your intensity was close in {near}, too low in {weak} and too high in {strong}} other {}}.{slip}',
  'suggest.emotion.slip': ' A clear slip: lines meant as {target} sounded like {heard} ({count}).',
  'suggest.progress.none':
    'No line has a second attempt yet; re-record your lowest-scoring line and compare.',
  'suggest.progress':
    'Over {lines} re-recorded {lines, plural, one {line} other {lines}} your total {direction, select, same {did not change on average} other {moved {change, number, ::+.0} points on average}}{better, select, yes {; {area} improved most (+{areaChange, number, ::.0})} other {; no part improved, so listen to the actor again before re-recording}}.',
  'suggest.practice': '{area} (average {average, number, ::.}, your weakest part) — {exercise}{example}',
  'suggest.practice.example': ' For line {index} ("{text}"): {tip}',
  'exercise.emotion':
    'name the emotion before each take, play it exaggerated once, then bring it back to natural.',
  'exercise.intonation':
    "hum the actor's tune without words to find where it rises and falls, then add the words.",
  'exercise.energy':
    'mark the one or two key words of each line, say them clearly louder and the rest softer.',
  'exercise.timing': 'shadow the actor, speaking along with the clip so your start and pauses line up.',
  'exercise.quality':
    'record in a quiet room, 15–30 cm from the microphone, and check the level meter first.',

  'report.answers.high': 'You answered {percent}% of the questions correctly: you followed the story well.',
  'report.answers.some':
    '{right, plural, one {You got question {which} right ({right} of {scored}): "{prompt}".} other {You got questions {which} right ({right} of {scored}), such as "{prompt}".}}',
  'report.answers.gain': 'Your answers improved by {gain} points since last time ({before}% → {after}%).',
  'report.strongest': 'Your {area} is your strongest side (average {average, number, ::.}).',
  'report.secondTakes':
    'Your second takes scored {gain} {gain, plural, one {point} other {points}} higher than your first on average.',
  'report.emotionMatch':
    'Of the lines where an emotion came through clearly, {percent}% matched the target emotion.',
  'report.practice.area': 'Practise your {area} next (average {average, number, ::.}): {how}',
  'report.practice.question': 'Watch the film again and rethink question {index}: "{prompt}"',
  'practice.emotion':
    'Name the feeling of each line first, then let it show in your pace, loudness and pitch.',
  'practice.intonation':
    "Hum the actor's melody of the line, mark where the pitch rises and falls, then speak it again.",
  'practice.energy': 'Make stressed words louder than the rest so the contrast is clear, without shouting.',
  'practice.timing':
    'Start on the subtitle cue and pause where the actor pauses, to stay in sync with the picture.',
  'practice.quality':
    'Record somewhere quiet, about a fist away from the microphone, neither too soft nor distorted.',

  'h5.reportTitle': '{film} · Training report',
  'h5.part': '{part, select, prpo {Part one} other {Part two}}',
  'h5.learner': 'Learner',
  'h5.date': 'Date',
  'h5.timeSpent': 'Time spent',
  'h5.duration': '{minutes} min {seconds} s',
  'h5.answers': 'Answers',
  'h5.notScored': 'Open question · not scored',
  'h5.notAnswered': 'Not answered in this run',
  'h5.dubbing': 'Dubbing · {scored}/{total} lines scored',
  'h5.secondTakes':
    '{direction, select, same {second takes: no change from the first on average} other {second takes {change} points on average against the first}}',
  'h5.emotionMatch': 'emotion matched, of the lines with a clear emotion: {percent}%',
  'h5.emotionAverage': 'emotion average {average}',
  'h5.silentLines':
    'no speech heard in {silent, plural, one {# line} other {# lines}}: record {silent, plural, one {it} other {them}} again',
  'h5.recording': 'Recording',
  'h5.myDub': 'My dub',
  'h5.bestLine': 'Your most improved line, three ways: line {line}',
  'h5.dubQueueFull': 'Too many dubbed videos are waiting to be made; open this report again in a while',
  'h5.dubRendering': 'Your dubbed clip is being made; refresh in a moment',
  'h5.dubFailed': 'The dubbed video could not be made',
  'h5.strengths': 'Strengths',
  'h5.practiceNext': 'Practise next',
  'h5.expired.title': 'Link expired',
  'h5.expired.body': 'This link has expired. Ask for a new one.',
  'h5.invalid.title': 'Invalid link',
  'h5.invalid.body': 'This link is incomplete or has been altered.',
  'h5.gone.title': 'Report not found',
  'h5.gone.body': 'This report no longer exists.',
  'h5.revoked.title': 'No longer shared',
  'h5.revoked.body': 'The learner stopped sharing this report.',
  'h5.videoMissing.title': 'The dubbed video is not ready yet',
  'h5.videoMissing.body': 'Open it again in a moment.',

  'qr.title': 'Confirm sign-in',
  'qr.heading': 'Confirm sign-in on your computer',
  'qr.explain':
    'The computer that showed this code is waiting to sign in to {product}. When you confirm here, it signs in to your account: your password is typed only on your phone, never on the shared screen.',
  'qr.signInAs': 'You will sign in on the computer as {nickname} ({account}).',
  'qr.account': 'Account',
  'qr.password': 'Password',
  'qr.confirm': 'Confirm',
  'qr.cancel': 'Cancel',
  'qr.invalid': 'This QR code is not valid. Refresh it on the computer.',
  'qr.expired': 'This QR code has expired. Refresh it on the computer.',
  'qr.wasCancelled': 'This sign-in was cancelled.',
  'qr.wasConfirmed': 'This sign-in has already been confirmed.',
  'qr.confirmed': 'Confirmed. Continue on your computer.',
  'qr.cancelled': 'Sign-in cancelled.',
  'qr.keepSignedIn': 'Stay signed in on this phone (otherwise it signs out with the computer)',
  'qr.endsWithComputer': 'This phone signs out when the computer does.',
  'qr.notYou': 'Not you? Sign out on this phone',
  'qr.signOutEverywhere': 'Sign out everywhere',

  'words.subScore': 'Words {score}',
  'words.suggestHeading': 'Lines whose words need another go',
  'words.suggestLine': 'Line {index}',
  'words.summary':
    '{missedCount, plural, =0 {{total, plural, one {You said the one word} other {You said all # words}}} other {You said {said} of {total} words; missed: {missed}}}{offCount, plural, =0 {} other {; not clear yet: {off}}}',
  'words.otherLine': "We couldn't hear this line in your take — say it as written",
  'words.noneClear':
    '{total, plural, one {The word didn’t come through clearly yet — say it as written} other {None of the # words came through clearly yet — say each one as written}}',
  'words.notChecked.language':
    "{language, select, de {Words aren't checked for German lines} pl {Words aren't checked for Polish lines} fr {Words aren't checked for French lines} es {Words aren't checked for Spanish lines} it {Words aren't checked for Italian lines} ja {Words aren't checked for Japanese lines} ko {Words aren't checked for Korean lines} ru {Words aren't checked for Russian lines} none {This film doesn't say which language its lines are in, so words aren't checked} other {Words aren't checked for lines in this language}} — only your delivery is scored",
  'words.notChecked.engine':
    "{language, select, en {English word checking} zh {Mandarin word checking} other {Word checking}} isn't set up on this device yet — only your delivery is scored",
  'words.notChecked.failed': "Your words couldn't be checked this time — only your delivery is scored",
  'words.notChecked.noText': 'This line has no words to check — only your delivery is scored',
  'words.missed': ' (missed)',
  'words.off': ' (not clear yet)',
  'words.play': 'Hear the actor, then you: {word}',
};
