import type { Question, Report } from '../../../api/contract';
import type { Lang } from '../../i18n';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { type EmotionArcPoint, LazyEmotionArcChart } from '../../ui/charts/lazy';
import { CheckIcon, CrossIcon, PrintIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { ProgressRing } from '../../ui/progress-ring';
import { ScoreBadge } from '../../ui/score-badge';
import { clock, formatDate, signed } from '../../lib/format';
import type { Part } from '../../lib/paths';
import { type Translate, useT } from '../../i18n/use-t';
import { answerText } from '../../features/answers/answer-text';
import { latestMelodiesFromReport, latestTakesFromReport } from '../../stores/takes/latest-takes';
import { DubVideoLink, WatchDub } from '../../features/watch-dub/watch-dub';
import { ReportLines } from './report-lines';
import styles from './report-screen.module.css';
import { RunHistory } from './run-history';
import { reportState } from './report-state';
import { ShareQr } from './share-qr';
import { filmTitle } from '../../lib/film-title';
import { formatScore } from '../../../api/contract/display';
import { fact, word } from '../../../i18n';
import { changeDirection } from '../../../audio/scoring/aggregate';

export function arcPoints(report: Report): EmotionArcPoint[] {
  return (report.dubbing?.lines ?? []).map((l) => {
    // A take rejected as "no speech heard" was not read: its arousal and valence are not the learner's.
    const latest = l.second ?? l.first;
    const best = latest && latest.speechDetected !== false ? latest : null;
    return {
      label: String(l.index),
      text: l.text,
      learnerArousal: best?.arousal ?? null,
      learnerValence: best?.valence ?? null,
      actorArousal: l.actor?.arousal ?? null,
      actorValence: l.actor?.valence ?? null,
    };
  });
}

function Kpi({ value, label, ring }: { value: string; label: string; ring?: number | null }) {
  return (
    <div className={styles.kpi}>
      {ring !== undefined && ring !== null ? (
        <ProgressRing value={ring / 100} size={64} stroke={6} label={`${label} ${value}`}>
          {Math.round(ring)}
        </ProgressRing>
      ) : null}
      <div className={styles.kpiText}>
        <span className={styles.kpiValue}>{value}</span>
        <span className={styles.kpiLabel}>{label}</span>
      </div>
    </div>
  );
}

interface AnswersProps {
  report: Report;
  /** The film's questions when known (to name chosen options). */
  questions: readonly Question[];
  t: Translate;
  lang: Lang;
}

/**
 * The report names questions but not their options; when the film's detail is at hand the chosen
 * option ids become their labels, otherwise a choice answer shows only its verdict.
 */
function Answers({ report, questions, t, lang }: AnswersProps) {
  const answerOf = (item: Report['answers']['items'][number]) => {
    const q = questions.find((x) => x.id === item.questionId);
    if (item.kind !== 'text' && !q) return null;
    return answerText(item.answer, q, lang) ?? t('result.noAnswer');
  };
  return (
    <ol className={styles.answers}>
      {report.answers.items.map((q, i) => (
        <li key={q.questionId} className={styles.answer}>
          <span>
            <span className="muted">{i + 1}. </span>
            {q.prompt[lang] || q.prompt.zh}
            {answerOf(q) !== null ? (
              <>
                <br />
                <span className="muted">
                  {t('result.yourAnswer')}
                  {t('ui.colon')}
                  {answerOf(q)}
                </span>
              </>
            ) : null}
          </span>
          <span>
            {q.correct === null ? (
              <span className="muted">{t('result.open')}</span>
            ) : q.correct ? (
              <span className={styles.verdictOk}>
                <CheckIcon /> <span className="visually-hidden">{t('result.correct')}</span>
              </span>
            ) : (
              <span className={styles.verdictNo}>
                <CrossIcon /> <span className="visually-hidden">{t('result.wrong')}</span>
              </span>
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}

export interface ReportViewProps {
  part: Part;
  report: Report;
  h5Url: string;
  h5Pending: boolean;
  /** The film's questions when known (to name chosen options). */
  questions?: readonly Question[];
}

/** The share page opens in the language the learner chose here (server/routes/producer/h5-report.ts). */
function withLang(url: string, lang: 'zh' | 'en'): string {
  return `${url}${url.includes('?') ? '&' : '?'}lang=${lang}`;
}

/** The report's figures in brief: the answers' score and, once dubbed, the dubbing's. */
function ReportKpis({ report, t }: { report: Report; t: Translate }) {
  const d = report.dubbing;
  const improvement = d?.improvement ?? null;
  return (
    <div className={styles.kpis}>
      <Kpi
        value={t('ui.percent', { n: report.answers.percent })}
        label={t('report.answersScore')}
        ring={report.answers.percent}
      />
      {d ? (
        <>
          <Kpi value={formatScore(d.average) ?? '—'} label={t('report.dubAverage')} ring={d.average} />
          <Kpi
            value={
              improvement === null
                ? '—'
                : changeDirection(improvement) === 'same'
                  ? t('change.none')
                  : (signed(improvement) ?? '—')
            }
            label={t('report.improvement')}
          />
          <Kpi
            value={d.emotionMatchRate === null ? '—' : `${Math.round(d.emotionMatchRate * 100)}%`}
            label={t('report.emotionMatch')}
          />
          <Kpi value={formatScore(d.emotionAverage) ?? '—'} label={t('report.emotionAverage')} />
        </>
      ) : null}
    </div>
  );
}

/** The emotion arc of the learner's takes against the actor's lines, and its verdict. */
function ArcCard({ report, t, lang }: { report: Report; t: Translate; lang: Lang }) {
  const d = report.dubbing;
  return (
    <Card title={t('report.arc')} titleId="report-arc">
      <LazyEmotionArcChart
        hideTitle
        points={arcPoints(report)}
        labels={{
          title: t('report.arc'),
          summary: t('report.arcSummary'),
          summaryLearnerOnly: t('report.arcSummaryLearner'),
          learner: t('ui.learner'),
          actor: t('ui.actor'),
          arousal: t('report.arousal'),
          valence: t('report.valence'),
          line: t('report.line'),
          tableLabel: t('ui.showTable'),
          fallback: t('ui.chartFallback'),
        }}
      />
      {d?.arc?.verdict ? (
        <p data-testid="report-arc-verdict" data-verdict={d.arc.verdict}>
          {word(fact(`report.arc.${d.arc.verdict}`, { score: d.arc.score }), lang)}
        </p>
      ) : null}
    </Card>
  );
}

/** What went well, and what to practise next. */
function StrengthsAndPractice({ report, t, lang }: { report: Report; t: Translate; lang: Lang }) {
  return (
    <>
      <Card title={t('report.strengths')} titleId="report-strengths">
        {report.strengths.length ? (
          <ul className={styles.list}>
            {report.strengths.map((s) => (
              <li key={s.zh}>{s[lang] || s.zh}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('report.noStrengths')}</p>
        )}
      </Card>
      {report.practice ? (
        <Card title={t('report.practice')} titleId="report-practice">
          <p className={styles.practice}>{report.practice[lang] || report.practice.zh}</p>
        </Card>
      ) : null}
    </>
  );
}

/** Each dubbed line with its takes, how many were scored, and the dubbed video. */
function DubbingCard({ report, t, lang }: { report: Report; t: Translate; lang: Lang }) {
  const d = report.dubbing;
  if (!d) return null;
  return (
    <Card
      title={t('report.dubbing')}
      titleId="report-dubbing"
      aside={
        <span className={styles.meta}>
          <span className="muted" data-testid="report-scored-lines">
            {t('report.scoredLines', { done: d.scoredLines, total: d.lines.length })}
          </span>
          {d.silentLines ? (
            <span className={styles.silent} data-testid="report-silent-lines">
              {t('report.silentLines', { n: d.silentLines })}
            </span>
          ) : null}
          <span className="no-print">
            <WatchDub
              filmId={report.film.id}
              takes={latestTakesFromReport(d.lines)}
              melodies={latestMelodiesFromReport(d.lines)}
            />
          </span>
          <span className="no-print">
            <DubVideoLink video={report.dubVideo} />
          </span>
        </span>
      }
    >
      <ReportLines lines={d.lines} t={t} lang={lang} />
    </Card>
  );
}

/** The questions, the learner's answers and their verdicts, with the answers' score. */
function AnswersCard({ report, questions, t, lang }: AnswersProps) {
  return (
    <Card
      title={t('report.answers')}
      titleId="report-answers"
      aside={
        <ScoreBadge
          score={report.answers.percent}
          label={t('result.scoreOf', { score: report.answers.score, max: report.answers.maxScore })}
          unit="%"
        />
      }
    >
      <Answers report={report} questions={questions} t={t} lang={lang} />
    </Card>
  );
}

/** What the learner did and how well, with the report's link as a QR code; prints on plain paper. */
export function ReportView({ part, report, h5Url, h5Pending, questions = [] }: ReportViewProps) {
  const { t, lang } = useT();
  const d = report.dubbing;
  return (
    <div className="screen" data-screen="report">
      <PageHeader
        eyebrow={t(`part.${part}.name`)}
        title={`${t('report.title')} · ${filmTitle(report.film, lang)}`}
        subtitle={
          <span className={styles.meta}>
            <span>{t('report.learner', { name: report.learner.nickname })}</span>
            <span>{t('report.date', { date: formatDate(report.createdAt, lang) })}</span>
            {report.durationMs ? <span>{t('report.spent', { d: clock(report.durationMs) })}</span> : null}
          </span>
        }
        actions={
          <Button className="no-print" icon={<PrintIcon />} onClick={() => window.print()}>
            {t('ui.print')}
          </Button>
        }
      />
      <ReportKpis report={report} t={t} />
      <div className={styles.layout}>
        <div className={styles.main}>
          <DubbingCard report={report} t={t} lang={lang} />
          {d?.lines.some((l) => l.first) ? <ArcCard report={report} t={t} lang={lang} /> : null}
          <AnswersCard report={report} questions={questions} t={t} lang={lang} />
        </div>
        <div className={styles.side}>
          <StrengthsAndPractice report={report} t={t} lang={lang} />
          <ShareQr
            url={h5Url ? withLang(h5Url, lang) : ''}
            pending={h5Pending}
            onStop={() =>
              reportState(part).revokeShare(report.runId ? { runId: report.runId } : { id: report.id })
            }
          />
        </div>
      </div>
      <RunHistory part={part} runs={report.progress ?? []} current={report.runId} t={t} lang={lang} />
    </div>
  );
}
