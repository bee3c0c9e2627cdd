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
import { useLoad } from '../../lib/use-load';
import { useT } from '../../i18n/use-t';
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
  const navigate = useNavigate();
  const store = filmStore(part);
  const { status } = useLoad(() => store.loadMovieDetail(id), [part, id]);
  const detail = store.movieDetail.value?.id === id ? store.movieDetail.value : null;
  const [draft, setDraft] = useState<Draft>(() => readDraft(part, id) ?? {});
  const [restored] = useState(() => Object.keys(readDraft(part, id) ?? {}).length > 0);
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    writeDraft(part, id, Object.keys(draft).length ? draft : null);
  }, [draft, part, id]);

  const back = (
    <ButtonLink to={paths.cinema(part, id)} variant="ghost" size="sm" icon={<ArrowLeftIcon />}>
      {t('answer.rewatch')}
    </ButtonLink>
  );

  if (!detail) {
    return (
      <div className="screen screen--narrow" data-screen="answer">
        <PageHeader title={t('answer.title')} back={back} />
        {status === 'loading' ? (
          <LoadingState label={t('common.loading')} />
        ) : (
          <EmptyState title={t('cinema.notFound')} body={t('ui.loadFailedBody')} />
        )}
      </div>
    );
  }

  const questions: Question[] = detail.questions;
  const answered = questions.filter((q) => isAnswered(draft[q.id])).length;
  const missing = showErrors ? missingRequired(questions, draft) : [];
  const set = (qid: string, v: AnswerValue) => setDraft((d) => ({ ...d, [qid]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const miss = missingRequired(questions, draft);
    if (miss.length) {
      setShowErrors(true);
      // Move to the first unanswered question so keyboard and screen-reader users land on it.
      requestAnimationFrame(() => {
        const el = document.getElementById(`q-${miss[0]}`);
        el?.scrollIntoView({ block: 'center' });
        el?.querySelector<HTMLElement>('input,textarea')?.focus();
      });
      return;
    }
    setBusy(true);
    try {
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
      navigate(paths.result(part));
    } catch {
      setBusy(false); // the store action already showed why; the answers stay on screen
    }
  };

  return (
    <div className="screen screen--narrow" data-screen="answer">
      <PageHeader back={back} eyebrow={filmTitle(detail, lang)} title={t('answer.title')} />
      {questions.length === 0 ? (
        <EmptyState title={t('answer.noQuestions')} />
      ) : (
        <form onSubmit={submit} noValidate className="stack" style={{ gap: 'var(--space-5)' }}>
          <div className={styles.progress}>
            <div
              className={styles.bar}
              role="progressbar"
              aria-label={t('answer.progress', { done: answered, total: questions.length })}
              aria-valuemin={0}
              aria-valuemax={questions.length}
              aria-valuenow={answered}
            >
              <div className={styles.barFill} style={{ width: `${(answered / questions.length) * 100}%` }} />
            </div>
            <span className={styles.count} aria-hidden="true">
              {t('answer.progress', { done: answered, total: questions.length })}
            </span>
          </div>
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
          <ol className={styles.list}>
            {questions.map((q, i) => (
              <li key={q.id}>
                <QuestionField
                  question={q}
                  index={i}
                  value={draft[q.id]}
                  error={missing.includes(q.id) ? t('answer.missingOne') : null}
                  onChange={(v) => set(q.id, v)}
                  t={t}
                  lang={lang}
                />
              </li>
            ))}
          </ol>
          <div className={styles.footer}>
            <span className="muted">{t('answer.draftSaved')}</span>
            <Button type="submit" variant="primary" size="lg" loading={busy}>
              {busy ? t('answer.submitting') : t('answer.submit')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The route's screen (`/<part>/answer/:id`): a new film id starts a fresh form. */
export default function AnswerRoute() {
  const { id = '' } = useParams();
  return <AnswerScreen part={usePart()} id={id} key={id} />;
}
