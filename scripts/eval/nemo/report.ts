/**
 * Prints the out-of-domain table on nemo-dev (dataset.ts) for scoring versions v1, v2 and the
 * shipped one. Shared by `npm run eval:transfer` and `npm run eval:match`;
 * `-- --only nemo` runs this part alone. Nothing printed here is fitted on nemo-dev: every version's
 * model, thresholds and rules come from EmoDB (scripts/emotion).
 */
import {
  type ArcFigures,
  arcFigures,
  type ClaimFigures,
  arousalAuc,
  claims,
  matchFigures,
  type Mode,
  readAll,
  uar4,
  valenceAucs,
} from './figures';
import { loadNemoIndex, nemoDir, nemoFeatures, nemoPresent } from './dataset';
import { VERSIONS } from './versions';
import { arcVerdict } from '../../../src/audio/scoring/emotion-match';
import { EMOTION_PASS } from '../../../src/audio/scoring/aggregate';

/** Scene lengths the arc is measured on: the shortest the app judges (ARC_MIN_LINES), and longer. */
const ARC_LENGTHS = [3, 4, 6];

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : '–');
const num = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '–');

/** Prints the table (nothing is returned or stored: figures derived from nemo-dev stay out of the repository). */
export function nemoReport(print = (s: string) => console.log(s)): void {
  if (!nemoPresent()) {
    print(`nemo-dev SKIPPED: not found at ${nemoDir()} (set NEMO_DIR).`);
    return;
  }
  const started = Date.now();
  const takes = loadNemoIndex();
  const features = nemoFeatures(takes);
  const speakers = new Set(takes.map((t) => t.speaker)).size;
  print('');
  print(
    `nemo-dev (Polish, ${takes.length} takes, ${speakers} speakers never heard; evaluation only, nothing fitted on it)`,
  );
  print(
    'modes: cold = first take, nothing known of the voice; warm = after one neutral warm-up take; running = stats of the',
  );
  print("speaker's earlier takes (seeded order); all = stats of all the speaker's other takes.");
  const results = VERSIONS.map((v) => {
    const reads = readAll(v, takes, features);
    const c: Record<Mode, ClaimFigures> = {
      cold: claims(v, reads, 'cold'),
      warm: claims(v, reads, 'warm'),
      running: claims(v, reads, 'running'),
      all: claims(v, reads, 'all'),
    };
    const u = {
      cold: uar4(reads, 'cold'),
      warm: uar4(reads, 'warm'),
      running: uar4(reads, 'running'),
      all: uar4(reads, 'all'),
    };
    const ar = {
      cold: arousalAuc(reads, 'cold'),
      warm: arousalAuc(reads, 'warm'),
      running: arousalAuc(reads, 'running'),
      all: arousalAuc(reads, 'all'),
    };
    const m = {
      cold: matchFigures(v, reads, 'cold'),
      warm: matchFigures(v, reads, 'warm'),
      running: matchFigures(v, reads, 'running'),
    };
    // The actor read against the statistics of its other lines, as the service reads a role with lines.
    const actorBaseline = {
      cold: matchFigures(v, reads, 'cold', 'all'),
      warm: matchFigures(v, reads, 'warm', 'all'),
      running: matchFigures(v, reads, 'running', 'all'),
    };
    const va = { cold: valenceAucs(reads, 'cold'), running: valenceAucs(reads, 'running') };
    const says = (score: number) => arcVerdict({ score, correlation: score / 50 - 1, lines: ARC_LENGTHS[0] });
    const arc = Object.fromEntries(
      ARC_LENGTHS.map((n) => [
        n,
        Object.fromEntries(
          (['cold', 'warm', 'running'] as const).map((m) => [m, arcFigures(v, reads, m, says, n)]),
        ),
      ]),
    ) as Record<number, Record<'cold' | 'warm' | 'running', ArcFigures | null>>;
    // How often the top class is the take's emotion: what naming an actor's top class as a line's
    // emotion would be worth (src/audio/scoring/labels.ts, targetNamed).
    const topRight = (mode: Mode) =>
      reads.filter((r) => r.reading[mode].detected === r.take.emotion).length / reads.length;
    const top = { cold: topRight('cold'), all: topRight('all') };
    return { v, c, u, ar, m, arc, actorBaseline, va, top };
  });
  const col = (f: (r: (typeof results)[number]) => string) => results.map((r) => f(r).padStart(27)).join('');
  const line = (label: string, f: (r: (typeof results)[number]) => string) => {
    print(`${label.padEnd(64)}${col(f)}`);
  };
  print(`${'figure'.padEnd(64)}${results.map((r) => r.v.id.padStart(27)).join('')}`);
  for (const mode of ['cold', 'warm', 'running'] as Mode[])
    line(
      `takes where a category is named / named right (${mode})`,
      (r) => `${pct(r.c[mode].namedShare)} / ${pct(r.c[mode].namedRight)}`,
    );
  for (const mode of ['cold', 'warm', 'running'] as Mode[])
    line(`named classes (${mode}): class named (precision), ! under 85 %`, (r) =>
      r.c[mode].perClass.length
        ? r.c[mode].perClass
            .sort((a, b) => b.named - a.named)
            .slice(0, 3)
            .map(
              (p) =>
                `${p.emotion.slice(0, 4)} ${p.named}(${Math.round((100 * p.right) / p.named)}${p.right / p.named < 0.85 ? '!' : ''})`,
            )
            .join(' ')
        : 'none named',
    );
  line(
    "top class is the take's emotion (an actor's target), read cold / against all its other takes",
    (r) => `${pct(r.top.cold)} / ${pct(r.top.all)}`,
  );
  for (const mode of ['cold', 'running'] as Mode[])
    line(`percentage shown: share / mean shown / right / ECE (${mode})`, (r) =>
      r.c[mode].shownShare > 0
        ? `${(100 * r.c[mode].shownShare).toFixed(0)}/${(100 * r.c[mode].shownMean).toFixed(0)}/${(100 * r.c[mode].shownRight).toFixed(0)}/${(100 * r.c[mode].ece).toFixed(1)}`
        : 'none shown',
    );
  for (const mode of ['cold', 'warm', 'running', 'all'] as Mode[])
    line(`4-class UAR (anger, happiness, sadness, neutral), ${mode}`, (r) => pct(r.u[mode].uar));
  line('4-class recall cold: ang/hap/sad/neu', (r) =>
    ['anger', 'happiness', 'sadness', 'neutral'].map((e) => (100 * r.u.cold.recall[e]).toFixed(0)).join('/'),
  );
  for (const mode of ['cold', 'warm', 'running', 'all'] as Mode[])
    line(`arousal AUC (anger, happiness, fear vs sadness, neutral), ${mode}`, (r) => num(r.ar[mode]));
  for (const mode of ['cold', 'warm', 'running'] as const) {
    line(
      `match AUC annotated / actor, learner ${mode}`,
      (r) => `${num(r.m[mode].annotated)} / ${num(r.m[mode].actor)}`,
    );
    line(
      `wrong-emotion pass rate (≥ ${EMOTION_PASS}) annotated / actor, ${mode}`,
      (r) => `${pct(r.m[mode].wrongPassAnnotated)} / ${pct(r.m[mode].wrongPassActor)}`,
    );
    line(
      `right-emotion pass rate (≥ ${EMOTION_PASS}) annotated / actor, ${mode}`,
      (r) => `${pct(r.m[mode].rightPassAnnotated)} / ${pct(r.m[mode].rightPassActor)}`,
    );
  }
  for (const mode of ['cold', 'warm', 'running'] as const)
    line(
      `match AUC actor / wrong pass / right pass, actor read against its other lines, learner ${mode}`,
      (r) => {
        const a = r.actorBaseline[mode];
        return `${num(a.actor)} / ${pct(a.wrongPassActor)} / ${pct(a.rightPassActor)}`;
      },
    );
  for (const mode of ['cold', 'running'] as const)
    line(
      `valence AUC: happy vs neg / happy vs angry; category happy vs angry (${mode})`,
      (r) =>
        `${num(r.va[mode].valence)}/${num(r.va[mode].happyVsAngry)}/${num(r.va[mode].categoryHappyVsAngry)}`,
    );
  for (const n of ARC_LENGTHS)
    line(`scene arc AUC (${n} lines, same order vs shuffled), cold / warm / running`, (r) =>
      r.arc[n].cold
        ? `${num(r.arc[n].cold?.auc ?? Number.NaN)} / ${num(r.arc[n].warm?.auc ?? Number.NaN)} / ${num(r.arc[n].running?.auc ?? Number.NaN)}`
        : '–',
    );
  for (const n of ARC_LENGTHS)
    line(`"arc follows" said: in order / shuffled (${n} lines, running)`, (r) => {
      const a = r.arc[n].running;
      return a ? `${pct(a.followsSame)} / ${pct(a.followsShuffled)}` : '–';
    });
  for (const n of ARC_LENGTHS)
    line(`"arc does not follow" said: in order / shuffled (${n} lines, running)`, (r) => {
      const a = r.arc[n].running;
      return a ? `${pct(a.againstSame)} / ${pct(a.againstShuffled)}` : '–';
    });
  print(
    `versions: ${results.map((r) => `${r.v.id} = ${r.v.label}`).join('; ')}. Goals on every set: named right ≥ 85 % (or none`,
  );
  print(
    'named), ECE ≤ 5 %, UAR4 ≥ 55 % cold / ≥ 65 % running, arousal AUC ≥ 0.88 / 0.93, match AUC ≥ 0.80 / 0.75, wrong pass ≤ 10 %.',
  );
  print(`nemo-dev time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
