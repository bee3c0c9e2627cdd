import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  formatChange,
  formatScore,
  type LineAttemptSummary,
  type Report,
  type ReportLine,
} from '../../../src/api/contract';
import { heardFact } from '../../../src/audio/scoring/labels';
import { changeDirection } from '../../../src/audio/scoring/aggregate';
import { fact, type Lang, type StatementId, word } from '../../../src/i18n';
import { pageLang, phoneHeader, type Words, wordsFor } from '../../h5/lang';
import { html, page, raw } from '../../h5/html';
import { parseRange, sendStoredBytes } from '../../lib/media-range';
import type { RunsTable } from '../../db/schema';
import { buildRunReport } from '../../reports/build-report';
import { shareRevoked, shareSecret, verifyShareToken } from '../../reports/share-link';
import { AppError } from '../../lib/app-error';
import { dubVideoOf, readyDubVideoKey } from '../../renders/dub-video';
import { signReport, takeLinkSigner } from '../../takes/audio-links';
import { findRun, runOfRecord } from '../../takes/runs';
import { holdStreamSlot } from '../../lib/stream-slots';
import { lineWordsHtml } from '../../h5/words';

function sendHtml(
  reply: FastifyReply,
  status: number,
  lang: Lang,
  title: string,
  body: ReturnType<typeof html>,
  top?: ReturnType<typeof html>,
) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('content-language', lang === 'zh' ? 'zh-CN' : 'en')
    .header('vary', 'Accept-Language')
    .send(page(title, body, lang, top));
}

/** The time spent, only when the client reported it; never a placeholder. */
function durationRow(ms: number | null, w: Words) {
  if (ms === null) return '';
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return html`<div class="row"><span>${w('h5.timeSpent')}</span><span>${w('h5.duration', { minutes, seconds })}</span></div>`;
}

/** An answer's mark: open questions are not scored, so they show no points. */
function answerMark(q: Report['answers']['items'][number], w: Words) {
  if (q.correct === null) return w('h5.notScored');
  return html`${q.correct ? '✓' : '✗'} ${q.score}/${q.points}`;
}

/** The heard emotion as the app words it: named only when the reading was clear. */
function heardEmotion(a: LineAttemptSummary | null | undefined, lang: Lang) {
  if (!a) return '';
  // A silent take says so in place of its score (attemptScore): no emotion to name.
  if (a.speechDetected === false) return '';
  return ` · ${word(heardFact(a.detected, a.clear), lang)}`;
}

/** The line's latest take, through the signed link the page was rendered with. */
function takeAudio(url: string | undefined, w: Words) {
  if (!url) return '';
  return html`<audio controls preload="none" src="${`/producer${url}`}" aria-label="${w('h5.recording')}"></audio>`;
}

/** The line whose second take gained most on its first (both with speech), or null when none gained. */
function bestImprovedLine(lines: ReportLine[]): ReportLine | null {
  let best: ReportLine | null = null;
  let bestGain = 0;
  for (const l of lines) {
    if (!l.first || !l.second || l.first.speechDetected === false || l.second.speechDetected === false)
      continue;
    const gain = l.second.overall - l.first.overall;
    if (gain > bestGain) {
      best = l;
      bestGain = gain;
    }
  }
  return best;
}

/**
 * The most improved line three ways: the actor, the second take, and that take with the actor's
 * melody (src/audio/scoring/melody.ts), or why there is none. Plain audio elements: the page runs
 * no script (server/plugins/security-headers.ts).
 */
function bestLineCard(lines: ReportLine[], lang: Lang, w: Words) {
  const line = bestImprovedLine(lines);
  const take = line?.second;
  if (!line || !take) return '';
  const player = (label: string, src: string, testId: string) =>
    html`<p>${label}</p><audio controls preload="none" src="${`/producer${src}`}" aria-label="${label}" data-version="${testId}"></audio>`;
  const melody = take.melody;
  return html`<div class="card" data-best-line="${line.subtitlesId}"><p>${w('h5.bestLine', { line: line.index })}</p>
    <p class="en">${line.text}</p>
    ${line.referenceAudio ? player(word(fact('melody.actor'), lang), line.referenceAudio, 'actor') : ''}
    ${player(word(fact('melody.take'), lang), take.audioUrl, 'take')}
    ${
      melody?.status === 'ready'
        ? player(word(fact('melody.yours'), lang), melody.url, 'melody')
        : melody?.status === 'unavailable'
          ? html`<p data-version="melody-unavailable">${word(fact(`melody.${melody.reason}`), lang)}</p>`
          : ''
    }</div>`;
}

/** The dubbed video for the phone: played from this page's own signed link (no login). */
function dubVideoCard(video: Report['dubVideo'], token: string, w: Words) {
  if (!video || video.status === 'none') return '';
  const body =
    video.status === 'ready'
      ? html`<video class="dub" controls playsinline preload="metadata" src="${`/producer/h5/report/${token}/dub.mp4`}"></video>`
      : video.status === 'rendering'
        ? html`<p>${w('h5.dubRendering')}</p>`
        : html`<p class="error">${video.message ?? w('h5.dubFailed')}</p>`;
  return html`<div class="card"><p>${w('h5.myDub')}</p>${body}</div>`;
}

/** A take's score, or that no speech was heard in it (no score: src/audio/scoring/aggregate.ts). */
function attemptScore(a: LineAttemptSummary | null | undefined, lang: Lang): string {
  if (!a) return '—';
  return a.speechDetected === false ? word(fact('take.row.noSpeech'), lang) : (formatScore(a.overall) ?? '—');
}

function reportBody(r: Report, token: string, lang: Lang) {
  const w = wordsFor(lang);
  const answerRows = r.answers.items.map(
    (q, k) =>
      html`<div class="row"><span>${k + 1}. ${q.prompt[lang]}</span><span>${answerMark(q, w)}</span></div>`,
  );
  const dub = r.dubbing;
  const lineRows = dub
    ? dub.lines
        .filter((l) => l.first || l.second)
        .map(
          (l) => html`<div class="row"><span>${l.index}. ${l.text}</span>
            <span>${attemptScore(l.first, lang)} → ${attemptScore(l.second, lang)}${heardEmotion(l.second ?? l.first, lang)}</span></div>
            ${lineWordsHtml((l.second ?? l.first)?.words, lang)}${takeAudio((l.second ?? l.first)?.audioUrl, w)}`,
        )
    : [];
  const improvement = formatChange(dub?.improvement);
  const answered = r.answers.answered !== false;
  const dubFigures = [
    improvement !== null
      ? w('h5.secondTakes', { direction: changeDirection(dub?.improvement ?? 0), change: improvement })
      : '',
    dub?.emotionMatchRate != null
      ? w('h5.emotionMatch', { percent: Math.round(dub.emotionMatchRate * 100) })
      : '',
    dub?.emotionAverage != null
      ? w('h5.emotionAverage', { average: formatScore(dub.emotionAverage) ?? '—' })
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return html`
    ${r.film.poster ? html`<img class="poster" alt="" src="${`/producer${r.film.poster}`}">` : ''}
    <h1>${lang === 'en' && r.film.titleEn ? r.film.titleEn : r.film.title}</h1><p class="en">${w('h5.part', { part: r.part })}</p>
    ${dubVideoCard(r.dubVideo, token, w)}
    <div class="card"><div class="row"><span>${w('h5.learner')}</span><span>${r.learner.nickname}</span></div>
      <div class="row"><span>${w('h5.date')}</span><span>${r.createdAt.slice(0, 10)}</span></div>
      ${durationRow(r.durationMs, w)}</div>
    ${
      answered
        ? html`<div class="card"><p>${w('h5.answers')}</p>
      <p class="big">${r.answers.percent}%</p><p class="en">${r.answers.score} / ${r.answers.maxScore}</p>${answerRows}</div>`
        : html`<div class="card"><p>${w('h5.answers')}</p><p>${w('h5.notAnswered')}</p></div>`
    }
    ${
      dub
        ? html`<div class="card"><p>${w('h5.dubbing', { scored: dub.scoredLines, total: dub.lines.length })}</p>
          <p class="big">${formatScore(dub.average) ?? '—'}</p>
          <p class="en">${dubFigures}</p>${
            dub.silentLines ? html`<p>${w('h5.silentLines', { silent: dub.silentLines })}</p>` : ''
          }${
            dub.arc?.verdict
              ? html`<p>${w(`report.arc.${dub.arc.verdict}`, { score: dub.arc.score })}</p>`
              : ''
          }${lineRows}</div>${bestLineCard(dub.lines, lang, w)}`
        : ''
    }
    ${r.strengths.length ? html`<h2>${w('h5.strengths')}</h2>${r.strengths.map((s) => html`<p>${s[lang]}</p>`)}` : ''}
    ${r.practice ? html`<h2>${w('h5.practiceNext')}</h2><p>${r.practice[lang]}</p>` : raw('')}`;
}

type SharedRun = { run: RunsTable } | { status: number; title: string; body: ReturnType<typeof html> };

/** A page that says why there is no report, in the page's language. */
function problemPage(status: number, w: Words, title: StatementId, body: StatementId): SharedRun {
  return { status, title: w(title), body: html`<h1 class="error">${w(title)}</h1><p>${w(body)}</p>` };
}

/** The run a share token names, or the page that says why not (the same rules for the page and its video). */
async function sharedRun(app: FastifyInstance, token: string, w: Words): Promise<SharedRun> {
  const check = verifyShareToken(await shareSecret(app.db), token.slice(0, 600));
  if (!check.ok && check.reason === 'expired')
    return problemPage(410, w, 'h5.expired.title', 'h5.expired.body');
  if (!check.ok) return problemPage(403, w, 'h5.invalid.title', 'h5.invalid.body');
  // Links carry a run id; links given out before runs existed carry an answer record's id.
  const run = (await findRun(app.db, check.recordId)) ?? (await runOfRecord(app.db, check.recordId));
  if (!run) return problemPage(404, w, 'h5.gone.title', 'h5.gone.body');
  if (shareRevoked(check.expiresAt, run.shares_revoked_at))
    return problemPage(410, w, 'h5.revoked.title', 'h5.revoked.body');
  return { run };
}

/** The shared report page: works without login, shows only the one signed report and its dubbed video. */
export async function h5ReportRoutes(app: FastifyInstance): Promise<void> {
  app.get('/h5/report/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const lang = pageLang(request);
    const shared = await sharedRun(app, token, wordsFor(lang));
    const top = phoneHeader(request, lang);
    if (!('run' in shared)) return sendHtml(reply, shared.status, lang, shared.title, shared.body, top);
    const deps = { db: app.db, storage: app.storage, scoring: app.scoring, log: request.log };
    // The page gets its own short-lived links to the takes it plays (server/takes/audio-links.ts).
    const [built, sign] = await Promise.all([
      buildRunReport(deps, shared.run),
      takeLinkSigner(app.db, app.config.takeLinkTtlSeconds),
    ]);
    const report = signReport(sign, built);
    if (report.part === 'prpt') {
      // A full render queue (429) does not hide the page: it says why the video is not there yet.
      report.dubVideo = await dubVideoOf({ ...deps, renders: app.renders, lang }, shared.run).catch(
        (e: unknown) => {
          if (e instanceof AppError && e.httpStatus === 429)
            return { status: 'failed' as const, url: null, message: word(fact('h5.dubQueueFull'), lang) };
          throw e;
        },
      );
    }
    const film = lang === 'en' && report.film.titleEn ? report.film.titleEn : report.film.title;
    return sendHtml(
      reply,
      200,
      lang,
      word(fact('h5.reportTitle', { film }), lang),
      reportBody(report, token, lang),
      top,
    );
  });

  /** The run's rendered dubbed video, streamed (with Range, for phones' players) under the page's token. */
  app.route({
    method: ['GET', 'HEAD'],
    url: '/h5/report/:token/dub.mp4',
    // A phone's player seeks with Range requests: a request budget of its own, ten times the
    // general one; streams at once per address and per share link are bounded below.
    config: { rateLimit: { max: app.config.rateLimitPerMinute * 10, timeWindow: '1 minute' } },
    // Media are compressed in their own formats; byte ranges count the stored bytes.
    compress: false,
    handler: async (request, reply) => {
      const { token } = request.params as { token: string };
      const lang = pageLang(request);
      const w = wordsFor(lang);
      const shared = await sharedRun(app, token, w);
      if (!('run' in shared)) return sendHtml(reply, shared.status, lang, shared.title, shared.body);
      const key = await readyDubVideoKey(app.db, shared.run.id);
      const stat = key ? await app.storage.stat(key) : null;
      if (!key || !stat) {
        const missing = problemPage(404, w, 'h5.videoMissing.title', 'h5.videoMissing.body') as {
          title: string;
          body: ReturnType<typeof html>;
        };
        return sendHtml(reply, 404, lang, missing.title, missing.body);
      }
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', 'video/mp4')
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex');
      const range = parseRange(request.headers.range, stat.size);
      if (range === 'unsatisfiable')
        return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
      if (request.method !== 'HEAD' && !holdStreamSlot(app, request, reply, token)) return reply;
      return sendStoredBytes(request, reply, app.storage, key, stat.size, range);
    },
  });
}
