import { useState } from 'react';
import type { ReportLine } from '../../../api/contract';
import { prefixImage } from '../../../api/image';
import { fact, word } from '../../../i18n';
import type { Lang } from '../../i18n';
import type { Translate } from '../../i18n/use-t';
import { LazyContourChart } from '../../ui/charts/lazy';
import { MelodyVersions } from '../../ui/melody-versions';
import styles from './report-screen.module.css';

/**
 * One dubbed line opened in the report: its latest take three ways (the actor, the take, the take
 * with the actor's melody) and the three pitch contours. The chart loads when the line is opened.
 */
export function ReportLineDetail({ line, t, lang }: { line: ReportLine; t: Translate; lang: Lang }) {
  const [open, setOpen] = useState(false);
  // The caller opens only a line whose latest take held speech (report-lines.tsx).
  const take = line.second ?? line.first;
  if (!take) return null;
  return (
    <details
      className={styles.lineDetail}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid={`report-line-detail-${line.subtitlesId}`}
    >
      <summary>{word(fact('melody.versions'), lang)}</summary>
      {open ? (
        <>
          <MelodyVersions
            actorUrl={line.referenceAudio ? prefixImage(line.referenceAudio) : null}
            takeUrl={take.audioUrl ? prefixImage(take.audioUrl) : null}
            melody={take.melody}
            lang={lang}
            hideLegend
          />
          {line.contours ? (
            <LazyContourChart
              contours={line.contours}
              height={260}
              labels={{
                title: t('contour.title'),
                summary: t('contour.title'),
                learner: t('ui.learner'),
                actor: t('ui.actor'),
                melody: word(fact('melody.yours'), lang),
                pitch: t('contour.pitch'),
                loudness: t('contour.loudness'),
                seconds: t('contour.seconds'),
                fallback: t('ui.chartFallback'),
              }}
            />
          ) : null}
        </>
      ) : null}
    </details>
  );
}
