/**
 * npm run bench:words -- --set <dir> --lang en|zh [--limit N] — what the word check (server/words,
 * through its one entry checkWords) is measured to do on a folder of takes (scripts/words/word-set.ts
 * reads both layouts). One line per set, `–` where the set cannot give a figure:
 * - right-vs-wrong line AUC: each take checked against its own line and against another line of the
 *   set (seeded, another speaker's where there is one), ranked by the words' score;
 * - cut-short AUC: the take cut to its first 60 % against the whole, ranked by completeness; tail
 *   words named exactly: share of takes whose whole check heard every word and whose cut check names
 *   as missed exactly the words that start after the cut (or those plus the word the cut splits).
 *   Lines of fewer than MIN_CUT_UNITS words (characters in Mandarin) are left out of both, and so are
 *   takes whose words all end before the cut (it removed only silence); the line says how many of
 *   each: 60 % of a one-syllable word is still the word, so there is nothing to find missing;
 * - wrong lines passing: share of the wrong-line checks whose overall score (scoreTake, then
 *   withWords: src/audio/scoring/words.ts) is at least PASS_SCORE; the actor is another speaker's
 *   take of the target line where the set has one, else the line has no actor track;
 * - with the experts' labels: sentence accuracy, fluency and total PCC, word accuracy PCC, and the
 *   bad-word AUC (experts' mean < 6 against ≥ 8). On the set the model was trained on
 *   (so762-train) these come from speaker-grouped 5-fold cross-validation of the same recipe
 *   (scripts/words/train-en.ts), otherwise from the committed model;
 * - RTF: wall time of the own-line checks over their audio time (loaded machine: pessimistic).
 * Takes whose own line cannot be checked (no_text: a line of pinyin or digits only) are counted and
 * left out, also as anyone's "another line".
 * --limit N checks a seeded N of the set's takes (the whole set by default).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { WordCheck } from '../src/api/contract';
import { TARGET_SAMPLE_RATE } from '../src/audio/constants';
import { resampleSinc } from '../src/audio/analysis/resample-sinc';
import { analyseReference, scoreTake } from '../src/audio/scoring/pipeline';
import { PASS_SCORE, withWords } from '../src/audio/scoring/words';
import { checkWords } from '../server/words';
import { englishMeasuresOf } from '../server/words/en';
import { ENGLISH_MODEL } from '../server/words/en/model';
import type { EnglishMeasures } from '../server/words/en/verdict';
import { seededOrder } from '../scripts/lib/seeded';
import { auc, pearson, predictLinear } from '../scripts/words/fit';
import { CUT_SHARE, otherLines } from '../scripts/words/measure-set';
import { crossPredict, fitSentence, fitWord, wordRows } from '../scripts/words/train-en';
import { readTakeAudio, readWordSet, type SetTake } from '../scripts/words/word-set';
import { WORD_FEATURES } from '../server/words/en/features';

const { values } = parseArgs({
  options: { set: { type: 'string' }, lang: { type: 'string' }, limit: { type: 'string' } },
});
if (!values.set || (values.lang !== 'en' && values.lang !== 'zh')) {
  console.error('usage: npm run bench:words -- --set <dir> --lang en|zh [--limit N]');
  process.exit(2);
}
const setDir = path.resolve(values.set);
const lang = values.lang;
const CUT = CUT_SHARE;
/** A line needs this many words (characters) for a cut to leave some of it unsaid (see above). */
const MIN_CUT_UNITS = 3;
/** The set the English models were fitted on: its pronunciation figures are cross-validated. */
const TRAINING_SET = 'so762-train';

const fmt = (v: number, digits = 3) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : '–');

interface Row {
  take: SetTake;
  own: WordCheck;
  other: WordCheck;
  cut: WordCheck;
  cutSeconds: number;
  otherOverall: number;
  wall: number;
  seconds: number;
}

function lineValue(c: WordCheck): number {
  return c.status === 'checked' ? c.score : Number.NaN;
}

/** The cut check named exactly the words after the cut (with or without the one the cut splits). */
function tailNamed(own: WordCheck, cut: WordCheck, cutAt: number): boolean | null {
  if (own.status !== 'checked' || cut.status !== 'checked' || own.words.some((w) => w.start === null))
    return null;
  const missed = cut.words.map((w) => w.state === 'missed');
  const after = own.words.map((w) => (w.start ?? 0) >= cutAt);
  const across = own.words.map((w) => (w.start ?? 0) < cutAt && (w.end ?? 0) > cutAt);
  return missed.every((m, i) => m === after[i]) || missed.every((m, i) => m === (after[i] || across[i]));
}

async function main() {
  const all = readWordSet(setDir, lang);
  const picked = values.limit ? seededOrder(all, 39).slice(0, Number(values.limit)) : all;
  // Each take against its own line first: a line that cannot be checked is no one's "another line".
  const owns: { take: SetTake; own: WordCheck; wall: number }[] = [];
  for (const [i, take] of picked.entries()) {
    const { samples, sampleRate } = readTakeAudio(take);
    const started = performance.now();
    const own = await checkWords({ samples, sampleRate, text: take.text, language: lang });
    owns.push({ take, own, wall: (performance.now() - started) / 1000 });
    process.stderr.write(`\r${path.basename(setDir)}: own lines ${i + 1}/${picked.length}`);
  }
  process.stderr.write('\n');
  const unchecked = owns.filter((o) => o.own.status !== 'checked');
  const kept = owns.filter((o) => o.own.status === 'checked');
  const takes = kept.map((o) => o.take);
  const others = otherLines(takes);
  const rows: Row[] = [];
  for (const [i, { take, own, wall }] of kept.entries()) {
    const { samples, sampleRate } = readTakeAudio(take);
    const seconds = samples.length / sampleRate;
    const other = await checkWords({ samples, sampleRate, text: others[i], language: lang });
    const cutLength = Math.floor(samples.length * CUT);
    const cut = await checkWords({
      samples: samples.subarray(0, cutLength),
      sampleRate,
      text: take.text,
      language: lang,
    });
    // The wrong-line take through the product's score: its delivery (against the target line's
    // actor, where another speaker said it), then its words. Only where the words were checked.
    let otherOverall = Number.NaN;
    if (other.status === 'checked') {
      const actorTake = takes.find((t) => t.text === others[i] && t.speaker !== take.speaker);
      const actor = actorTake ? readTakeAudio(actorTake) : null;
      const to16 = (s: Float32Array, r: number) => resampleSinc(s, r, TARGET_SAMPLE_RATE);
      const delivery = scoreTake(to16(samples, sampleRate), TARGET_SAMPLE_RATE, {
        meta: {
          takeId: take.file,
          subtitlesId: 'bench',
          filmId: 'bench',
          attempt: 1,
          audioUrl: '',
          createdAt: '',
        },
        reference: actor ? analyseReference(to16(actor.samples, actor.sampleRate), TARGET_SAMPLE_RATE) : null,
        targetEmotion: null,
        speakerStats: null,
      }).score;
      otherOverall = withWords(delivery, other).overall;
    }
    rows.push({ take, own, other, cut, cutSeconds: cutLength / sampleRate, otherOverall, wall, seconds });
    process.stderr.write(`\r${path.basename(setDir)}: other and cut ${i + 1}/${takes.length}`);
  }
  process.stderr.write('\n');

  const checked = rows;
  const paired = rows.filter((r) => r.other.status === 'checked');
  const lineAuc = paired.length
    ? auc(
        paired.map((r) => lineValue(r.own)),
        paired.map((r) => lineValue(r.other)),
      )
    : Number.NaN;
  const completeness = (c: WordCheck) => (c.status === 'checked' ? c.completeness : Number.NaN);
  const units = (c: WordCheck) => (c.status === 'checked' ? c.words.length : 0);
  // A cut that removes only silence (every word the whole take heard ends before it) leaves nothing
  // to find missing: such takes are left out too, and counted.
  const silentCut = (r: Row) =>
    r.own.status === 'checked' &&
    !r.own.otherLine &&
    r.own.words.every((w) => w.end !== null && w.end <= r.cutSeconds);
  const cutRows = rows.filter(
    (r) => units(r.own) >= MIN_CUT_UNITS && r.cut.status === 'checked' && !silentCut(r),
  );
  const short = rows.filter((r) => units(r.own) < MIN_CUT_UNITS).length;
  const silent = rows.filter((r) => units(r.own) >= MIN_CUT_UNITS && silentCut(r)).length;
  const cutAuc = cutRows.length
    ? auc(
        cutRows.map((r) => completeness(r.own)),
        cutRows.map((r) => completeness(r.cut)),
      )
    : Number.NaN;
  const named = cutRows.map((r) => tailNamed(r.own, r.cut, r.cutSeconds)).filter((v) => v !== null);
  const wrongChecked = rows.filter((r) => r.other.status === 'checked');
  const passing = wrongChecked.length
    ? wrongChecked.filter((r) => r.otherOverall >= PASS_SCORE).length / wrongChecked.length
    : Number.NaN;

  // Pronunciation against the experts (English measures only).
  const labelled = checked.filter((r) => r.take.labels && englishMeasuresOf(r.own));
  const pron = {
    accuracy: Number.NaN,
    fluency: Number.NaN,
    total: Number.NaN,
    word: Number.NaN,
    badAuc: Number.NaN,
  };
  if (labelled.length >= 10) {
    const measured = labelled.map((r) => ({
      take: r.take,
      own: englishMeasuresOf(r.own) as EnglishMeasures,
    }));
    const cv = path.basename(setDir) === TRAINING_SET;
    for (const target of ['accuracy', 'fluency', 'total'] as const) {
      const names = ENGLISH_MODEL.sentence[target].features;
      const pred = cv
        ? crossPredict(
            measured,
            (t) => t.take.speaker,
            (train) => {
              const m = fitSentence(train, target, names);
              return (t) =>
                predictLinear(
                  m,
                  names.map((n) => t.own.utterance[n as keyof typeof t.own.utterance]),
                );
            },
          )
        : labelled.map((r) =>
            r.own.status === 'checked' ? (r.own.pronunciation?.[target] ?? Number.NaN) : Number.NaN,
          );
      pron[target] = pearson(
        pred,
        measured.map((t) => t.take.labels?.[target] ?? 0),
      );
    }
    const words = wordRows(measured);
    if (words.length >= 10) {
      const pred = cv
        ? crossPredict(
            words,
            (w) => w.speaker,
            (train) => {
              const m = fitWord(train);
              return (w) =>
                predictLinear(
                  m,
                  WORD_FEATURES.map((n) => w.features[n]),
                );
            },
          )
        : words.map((w) =>
            predictLinear(
              ENGLISH_MODEL.word,
              WORD_FEATURES.map((n) => w.features[n]),
            ),
          );
      const labels = words.map((w) => w.accuracy);
      pron.word = pearson(pred, labels);
      pron.badAuc = auc(
        pred.filter((_, i) => labels[i] < 6).map((v) => -v),
        pred.filter((_, i) => labels[i] >= 8).map((v) => -v),
      );
    }
  }
  const rtf = checked.length
    ? checked.reduce((s, r) => s + r.wall, 0) / checked.reduce((s, r) => s + r.seconds, 0)
    : Number.NaN;
  const figures = [
    `right-vs-wrong line AUC ${fmt(lineAuc)}`,
    `cut-short AUC ${fmt(cutAuc)}`,
    `tail words named exactly ${named.length ? `${pct(named.filter(Boolean).length / named.length)} of ${named.length}` : '–'}`,
    `wrong lines passing ${pct(passing)}`,
    `sentence accuracy PCC ${fmt(pron.accuracy)}`,
    `fluency PCC ${fmt(pron.fluency)}`,
    `total PCC ${fmt(pron.total)}`,
    `word accuracy PCC ${fmt(pron.word)}`,
    `bad-word AUC ${fmt(pron.badAuc)}`,
    `RTF ${fmt(rtf, 3)}`,
  ];
  const reasons = [...new Set(unchecked.map((o) => (o.own.status === 'unchecked' ? o.own.reason : '')))].join(
    ', ',
  );
  const notes = [
    unchecked.length ? `${unchecked.length} not checked: ${reasons}` : '',
    short
      ? `${short} lines under ${MIN_CUT_UNITS} ${lang === 'zh' ? 'characters' : 'words'} left out of cut-short`
      : '',
    silent ? `${silent} takes whose words all end before the cut left out of cut-short` : '',
    rows.length - paired.length ? `${rows.length - paired.length} without a checkable other line` : '',
  ].filter(Boolean);
  const note = notes.length ? ` (${notes.join('; ')})` : '';
  const setName = `${path.basename(path.dirname(setDir))}/${path.basename(setDir)}`;
  console.log(`${setName} [${lang}, ${owns.length} takes${note}]  ${figures.join(' · ')}`);
}

await main();
