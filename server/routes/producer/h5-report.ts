import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatChange, formatScore, type LineAttemptSummary, type Report } from '../../../src/api/contract';
import { emotionVerdict } from '../../../src/audio/scoring/labels';
import { html, page, raw } from '../../h5/html';
import type { RunsTable } from '../../db/schema';
import { buildRunReport } from '../../reports/build-report';
import { shareSecret, verifyShareToken } from '../../reports/share-link';
import { dubVideoOf, readyDubVideoKey } from '../../renders/dub-video';
import { signReport, takeLinkSigner } from '../../takes/audio-links';
import { findRun, runOfRecord } from '../../takes/runs';
import { parseRange } from './media';

function sendHtml(reply: FastifyReply, status: number, title: string, body: ReturnType<typeof html>) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(page(title, body));
}

/** "用时" only when the client reported the time spent; never a placeholder. */
function durationRow(ms: number | null) {
  if (ms === null) return '';
  const m = Math.floor(ms / 60_000);
  const sec = Math.round((ms % 60_000) / 1000);
  return html`<div class="row"><span>用时 <span class="en">Time spent</span></span><span>${m} 分 ${sec} 秒</span></div>`;
}

/** An answer's mark: open questions are not scored, so they show no points. */
function answerMark(q: Report['answers']['items'][number]) {
  if (q.correct === null) return html`主观题 · 不计分 <span class="en">not scored</span>`;
  return html`${q.correct ? '✓' : '✗'} ${q.score}/${q.points}`;
}

/** The heard emotion as the app words it: named only when the reading was clear. */
function emotionZh(a: LineAttemptSummary | null | undefined) {
  return a && a.speechDetected !== false ? ` · ${emotionVerdict(a.detected, a.clear).zh}` : '';
}

/** The line's latest take, through the signed link the page was rendered with. */
function takeAudio(url: string | undefined) {
  if (!url) return '';
  return html`<audio controls preload="none" src="${`/producer${url}`}" aria-label="录音 (recording)"></audio>`;
}

/** The dubbed video for the phone: played from this page's own signed link (no login). */
function dubVideoCard(video: Report['dubVideo'], token: string) {
  if (!video || video.status === 'none') return '';
  const body =
    video.status === 'ready'
      ? html`<video class="dub" controls playsinline preload="metadata" src="${`/producer/h5/report/${token}/dub.mp4`}"></video>`
      : video.status === 'rendering'
        ? html`<p>配音视频生成中，请稍后刷新 <span class="en">Your dubbed clip is being made; refresh in a moment</span></p>`
        : html`<p class="error">${video.message ?? '配音视频生成失败 (the dubbed video failed)'}</p>`;
  return html`<div class="card"><p>我的配音 <span class="en">My dub</span></p>${body}</div>`;
}

/** A take's score, or that no speech was heard in it (no score: src/audio/scoring/aggregate.ts). */
function attemptScore(a: LineAttemptSummary | null | undefined): string {
  if (!a) return '—';
  return a.speechDetected === false ? '没听到说话声' : (formatScore(a.overall) ?? '—');
}

function reportBody(r: Report, token: string) {
  const answerRows = r.answers.items.map(
    (q, k) => html`<div class="row"><span>${k + 1}. ${q.prompt.zh}</span><span>${answerMark(q)}</span></div>`,
  );
  const dub = r.dubbing;
  const lineRows = dub
    ? dub.lines
        .filter((l) => l.first || l.second)
        .map(
          (l) => html`<div class="row"><span>${l.index}. ${l.text}</span>
            <span>${attemptScore(l.first)} → ${attemptScore(l.second)}${emotionZh(l.second ?? l.first)}</span></div>
            ${takeAudio((l.second ?? l.first)?.audioUrl)}`,
        )
    : [];
  const improvement = formatChange(dub?.improvement);
  const answered = r.answers.answered !== false;
  return html`
    ${r.film.poster ? html`<img class="poster" alt="" src="${`/producer${r.film.poster}`}">` : ''}
    <h1>${r.film.title}</h1><p class="en">${r.film.titleEn} · ${r.part === 'prpo' ? '第一部分' : '第二部分'}</p>
    ${dubVideoCard(r.dubVideo, token)}
    <div class="card"><div class="row"><span>学员 <span class="en">Learner</span></span><span>${r.learner.nickname}</span></div>
      <div class="row"><span>日期 <span class="en">Date</span></span><span>${r.createdAt.slice(0, 10)}</span></div>
      ${durationRow(r.durationMs)}</div>
    ${
      answered
        ? html`<div class="card"><p>答题得分 <span class="en">Answers</span></p>
      <p class="big">${r.answers.percent}%</p><p class="en">${r.answers.score} / ${r.answers.maxScore}</p>${answerRows}</div>`
        : html`<div class="card"><p>答题 <span class="en">Answers</span></p><p>本次训练还没有答题 <span class="en">Not answered in this run</span></p></div>`
    }
    ${
      dub
        ? html`<div class="card"><p>配音 <span class="en">Dubbing</span>（${dub.scoredLines} 句）</p>
          <p class="big">${formatScore(dub.average) ?? '—'}</p>
          <p class="en">${improvement !== null ? `第二次平均 ${improvement} 分 · ` : ''}${
            dub.emotionMatchRate !== null ? `情绪匹配 ${Math.round(dub.emotionMatchRate * 100)}%` : ''
          }${dub.emotionAverage != null ? ` · 情绪平均 ${formatScore(dub.emotionAverage)} 分` : ''}</p>${
            dub.silentLines ? html`<p>${dub.silentLines} 句没有听到说话声，请重录</p>` : ''
          }${lineRows}</div>`
        : ''
    }
    ${
      r.strengths.length
        ? html`<h2>亮点 <span class="en">Strengths</span></h2>${r.strengths.map(
            (s) => html`<p>${s.zh}<br><span class="en">${s.en}</span></p>`,
          )}`
        : ''
    }
    ${r.practice ? html`<h2>下一步练习 <span class="en">Practise next</span></h2><p>${r.practice.zh}<br><span class="en">${r.practice.en}</span></p>` : raw('')}`;
}

type SharedRun = { run: RunsTable } | { status: number; title: string; body: ReturnType<typeof html> };

/** The run a share token names, or the page that says why not (the same rules for the page and its video). */
async function sharedRun(app: FastifyInstance, token: string): Promise<SharedRun> {
  const check = verifyShareToken(await shareSecret(app.db), token.slice(0, 600));
  if (!check.ok && check.reason === 'expired') {
    return {
      status: 410,
      title: '链接已过期',
      body: html`<h1 class="error">链接已过期</h1><p>请让对方重新分享报告。</p><p class="en">This link has expired. Ask for a new one.</p>`,
    };
  }
  if (!check.ok) {
    return {
      status: 403,
      title: '链接无效',
      body: html`<h1 class="error">链接无效</h1><p>链接不完整或已被修改。</p><p class="en">This link is invalid or has been altered.</p>`,
    };
  }
  // Links carry a run id; links given out before runs existed carry an answer record's id.
  const run = (await findRun(app.db, check.recordId)) ?? (await runOfRecord(app.db, check.recordId));
  if (!run) {
    return {
      status: 404,
      title: '报告不存在',
      body: html`<h1 class="error">报告不存在</h1><p class="en">This report no longer exists.</p>`,
    };
  }
  return { run };
}

/** The shared report page: works without login, shows only the one signed report and its dubbed video. */
export async function h5ReportRoutes(app: FastifyInstance): Promise<void> {
  app.get('/h5/report/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const shared = await sharedRun(app, token);
    if (!('run' in shared)) return sendHtml(reply, shared.status, shared.title, shared.body);
    const deps = { db: app.db, storage: app.storage, scoring: app.scoring, log: request.log };
    // The page gets its own short-lived links to the takes it plays (server/takes/audio-links.ts).
    const [built, sign] = await Promise.all([
      buildRunReport(deps, shared.run),
      takeLinkSigner(app.db, app.config.takeLinkTtlSeconds),
    ]);
    const report = signReport(sign, built);
    if (report.part === 'prpt')
      report.dubVideo = await dubVideoOf({ ...deps, renders: app.renders }, shared.run);
    return sendHtml(reply, 200, `${report.film.title} · 训练报告`, reportBody(report, token));
  });

  /** The run's rendered dubbed video, streamed (with Range, for phones' players) under the page's token. */
  app.route({
    method: ['GET', 'HEAD'],
    url: '/h5/report/:token/dub.mp4',
    config: { rateLimit: false },
    // Media are compressed in their own formats; byte ranges count the stored bytes.
    compress: false,
    handler: async (request, reply) => {
      const { token } = request.params as { token: string };
      const shared = await sharedRun(app, token);
      if (!('run' in shared)) return sendHtml(reply, shared.status, shared.title, shared.body);
      const key = await readyDubVideoKey(app.db, shared.run.id);
      const stat = key ? await app.storage.stat(key) : null;
      if (!key || !stat) {
        return sendHtml(
          reply,
          404,
          '配音视频不存在',
          html`<h1 class="error">配音视频还没有生成</h1><p class="en">The dubbed video is not ready yet.</p>`,
        );
      }
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', 'video/mp4')
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex');
      const range = parseRange(request.headers.range, stat.size);
      if (range === 'unsatisfiable')
        return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
      if (range) {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
          .header('content-length', range.end - range.start + 1);
        return request.method === 'HEAD' ? reply.send() : reply.send(app.storage.stream(key, range));
      }
      reply.header('content-length', stat.size);
      return request.method === 'HEAD' ? reply.send() : reply.send(app.storage.stream(key));
    },
  });
}
