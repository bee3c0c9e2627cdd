import { effect } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo } from 'react';
import { t } from '../../i18n';
import { Button } from '../../ui/button';
import styles from './dub.module.css';
import type { DubSession } from './dub-session';
import { MicCheck, type MicCheckDeps } from './mic-check';

/**
 * "Check the microphone" before a take: says a few words, sees "we hear you" (mic-check.ts). A take
 * starting ends a running check, so the two never hold the microphone at once.
 */
export function MicCheckPanel({ session, deps }: { session: DubSession; deps?: MicCheckDeps }) {
  useSignals();
  const check = useMemo(() => new MicCheck(deps), [deps]);
  useEffect(() => {
    const stopOnTake = effect(() => {
      if (session.busy.value) check.stop();
    });
    return () => {
      stopOnTake();
      check.stop();
    };
  }, [check, session]);
  const state = check.state.value;
  return (
    <div className={styles.controls} data-testid="mic-check" data-phase={state.phase}>
      <Button
        size="sm"
        variant="ghost"
        loading={state.phase === 'listening'}
        onClick={() => void check.start()}
        data-testid="mic-check-start"
      >
        {state.phase === 'idle' ? t('dub.micCheck') : t('dub.micCheckAgain')}
      </Button>
      <span className={state.phase === 'heard' ? styles.heard : styles.hint} role="status">
        {state.phase === 'listening'
          ? t('dub.micCheckListening')
          : state.phase === 'heard'
            ? t('dub.micCheckHeard')
            : state.phase === 'quiet'
              ? t('dub.micCheckQuiet')
              : state.phase === 'failed'
                ? t(`dub.problem.mic-${state.reason}`)
                : ''}
      </span>
    </div>
  );
}
