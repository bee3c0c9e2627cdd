import { useSignals } from '@preact/signals-react/runtime';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { Question } from '../../../api/contract';
import { Button, ButtonLink } from '../../ui/button';
import { ArrowLeftIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { type Part, paths, usePart } from '../../lib/paths';
import { filmStore } from '../../stores/films';
import { saveAnswers } from '../../features/answers/save-answers';
import { filmTitle } from '../../lib/film-title';
import type { MovieDetail } from '../../lib/movie-detail';
import { useLoad } from '../../lib/use-load';
import type { Lang } from '../../i18n';
import { type Translate, useT } from '../../i18n/use-t';
import styles from './answer-screen.module.css';
import {
  type AnswerValue,
  type Draft,
  filmElapsedMs,
  isAnswered,
  missingRequired,
  readDraft,
  writeDraft,
  writeLastResult,
} from '../../features/answers/answer-storage';
import { QuestionField } from './question-field';

/** The film's questions with progress, validation and save; every keystroke is kept in the tab's storage. */
export function AnswerScreen({ part, id }: { part: Part; id: string }) {
  useSignals();
  const { t, lang } = useT();
  const store = filmStore(part);
  const { status } = useLoad(() => store.loadMovieDetail(id), [part, id]);
  const detail = store.movieDetail.value?.id === id ? store.movieDetail.value : null;
  const back = (
    <ButtonLink to={paths.cinema(part, id)} variant="ghost" size="sm" icon={<ArrowLeftIcon />}>
      {t('answer.rewatch')}
    </ButtonLink>
  );
  return (
    <div className="screen screen--narrow" data-screen="answer">
      {!detail ? (
        <>
          <PageHeader title={t('answer.title')} back={back} />
          <NotLoaded loading={status === 'loading'} t={t} />
        </>
      ) : (
        <>
          <PageHeader back={back} eyebrow={filmTitle(detail, lang)} title={t('answer.title')} />
          {detail.questions.length === 0 ? (
            <EmptyState title={t('answer.noQuestions')} />
          ) : (
            <AnswerForm part={part} id={id} detail={detail} t={t} lang={lang} />
          )}
        </>
      )}
    </div>
  );
}

/**
 * The questions, the draft restored and kept, and the submit: every required question answered (else
 * the first missing one is focused and each says so), then saved for the result screen.
 */
function AnswerForm({
  part,
  id,
  detail,
  t,
  lang,
}: {
  part: Part;
  id: string;
  detail: MovieDetail;
  t: Translate;
  lang: Lang;
}) {
  const navigate = useNavigate();
  const { draft, setDraft, restored } = useDraft(part, id);
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const questions: Question[] = detail.questions;
  const answered = questions.filter((q) => isAnswered(draft[q.id])).length;
  const missing = showErrors ? missingRequired(questions, draft) : [];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const miss = missingRequired(questions, draft);
    if (miss.length) {
      setShowErrors(true);
      focusQuestion(miss[0]);
      return;
    }
    setBusy(true);
    try {
      await saveForResult(part, id, detail, draft);
      navigate(paths.result(part));
    } catch {
      setBusy(false); // the store action already showed why; the answers stay on screen
    }
  };

  return (
    <form onSubmit={submit} noValidate className="stack" style={{ gap: 'var(--space-5)' }}>
      <AnswerProgress
        done={answered}
        total={questions.length}
        label={t('answer.progress', { done: answered, total: questions.length })}
      />
      {restored ? (
        <p className={styles.notice} role="status">
          {t('answer.draftRestored')}
        </p>
      ) : null}
      {missing.length > 0 ? (
        <p ref={summaryRef} className={styles.summary} role="alert">
          {t('answer.missing', { n: missing.length })}
        </p>
      ) : null}
      <QuestionList
        questions={questions}
        draft={draft}
        missing={missing}
        onChange={(qid, v) => setDraft((d) => ({ ...d, [qid]: v }))}
        t={t}
        lang={lang}
      />
      <div className={styles.footer}>
        <span className="muted">{t('answer.draftSaved')}</span>
        <Button type="submit" variant="primary" size="lg" loading={busy}>
          {busy ? t('answer.submitting') : t('answer.submit')}
        </Button>
      </div>
    </form>
  );
}

/** The film's answers so far, restored from the tab's storage and kept there on every change. */
function useDraft(part: Part, id: string) {
  const [draft, setDraft] = useState<Draft>(() => readDraft(part, id) ?? {});
  const [restored] = useState(() => Object.keys(readDraft(part, id) ?? {}).length > 0);
  useEffect(() => {
    writeDraft(part, id, Object.keys(draft).length ? draft : null);
  }, [draft, part, id]);
  return { draft, setDraft, restored };
}

/** Moves to a question so keyboard and screen-reader users land on it (after the errors render). */
function focusQuestion(questionId: string): void {
  requestAnimationFrame(() => {
    const el = document.getElementById(`q-${questionId}`);
    el?.scrollIntoView({ block: 'center' });
    el?.querySelector<HTMLElement>('input,textarea')?.focus();
  });
}

/** Saves the answered questions and keeps the answer for the result screen; the draft is then done. */
async function saveForResult(part: Part, id: string, detail: MovieDetail, draft: Draft): Promise<void> {
  const questions = detail.questions;
  const data = await saveAnswers(part, {
    filmId: id,
    answers: questions
      .filter((q) => isAnswered(draft[q.id]))
      .map((q) => ({ questionId: q.id, value: draft[q.id] })),
    durationMs: filmElapsedMs(part, id),
  });
  writeLastResult(part, {
    filmId: id,
    filmTitle: detail.title,
    filmTitleEn: detail.titleEn,
    questions,
    data,
  });
  writeDraft(part, id, null);
}

/** How many questions are answered, as a bar and as words. */
function AnswerProgress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <div className={styles.progress}>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className={styles.barFill} style={{ width: `${(done / total) * 100}%` }} />
      </div>
      <span className={styles.count} aria-hidden="true">
        {label}
      </span>
    </div>
  );
}

/** The film's detail is not here: still loading, or the film cannot be found. */
function NotLoaded({ loading, t }: { loading: boolean; t: Translate }) {
  return loading ? (
    <LoadingState label={t('common.loading')} />
  ) : (
    <EmptyState title={t('cinema.notFound')} body={t('ui.loadFailedBody')} />
  );
}

/** Every question with its answer so far; those in `missing` say they still need one. */
function QuestionList({
  questions,
  draft,
  missing,
  onChange,
  t,
  lang,
}: {
  questions: Question[];
  draft: Draft;
  missing: string[];
  onChange: (questionId: string, v: AnswerValue) => void;
  t: Translate;
  lang: Lang;
}) {
  return (
    <ol className={styles.list}>
      {questions.map((q, i) => (
        <li key={q.id}>
          <QuestionField
            question={q}
            index={i}
            value={draft[q.id]}
            error={missing.includes(q.id) ? t('answer.missingOne') : null}
            onChange={(v) => onChange(q.id, v)}
            t={t}
            lang={lang}
          />
        </li>
      ))}
    </ol>
  );
}

/** The route's screen (`/<part>/answer/:id`): a new film id starts a fresh form. */
export default function AnswerRoute() {
  const { id = '' } = useParams();
  return <AnswerScreen part={usePart()} id={id} key={id} />;
}
