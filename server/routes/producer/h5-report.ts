import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Report } from '../../../src/api/contract';
import { html, page, raw } from '../../h5/html';
import { sharedSecret } from '../../lib/settings';
import { buildReport } from '../../reports/build-report';
import { verifyShareToken } from '../../reports/share-link';
import { SHARE_SECRET_KEY } from './reports';

const EMOTION_ZH: Record<string, string> = {
  anger: '愤怒',
  boredom: '厌倦',
  disgust: '厌恶',
  fear: '恐惧',
  happiness: '喜悦',
  sadness: '悲伤',
  neutral: '平静',
};

function sendHtml(reply: FastifyReply, status: number, title: string, body: ReturnType<typeof html>) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(page(title, body));
}

const fmtDuration = (ms: number | null) => {
  if (ms === null) return '—';
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} 分 ${s} 秒`;
};

function reportBody(r: Report) {
  const answerRows = r.answers.items.map(
    (q, k) => html`<div class="row"><span>${k + 1}. ${q.prompt.zh}</span>
      <span>${q.correct === null ? '主观题' : q.correct ? '✓' : '✗'} ${q.score}/${q.points}</span></div>`,
  );
  const dub = r.dubbing;
  const lineRows = dub
    ? dub.lines
        .filter((l) => l.first || l.second)
        .map(
          (l) => html`<div class="row"><span>${l.index}. ${l.text}</span>
            <span>${l.first ? Math.round(l.first.overall) : '—'} → ${l.second ? Math.round(l.second.overall) : '—'}
            ${(l.second ?? l.first) ? `· ${EMOTION_ZH[(l.second ?? l.first)!.detected] ?? ''}` : ''}</span></div>`,
        )
    : [];
  return html`
    ${r.film.poster ? html`<img class="poster" alt="" src="${`/producer${r.film.poster}`}">` : ''}
    <h1>${r.film.title}</h1><p class="en">${r.film.titleEn} · ${r.part === 'prpo' ? '第一部分' : '第二部分'}</p>
    <div class="card"><div class="row"><span>学员 <span class="en">Learner</span></span><span>${r.learner.nickname}</span></div>
      <div class="row"><span>日期 <span class="en">Date</span></span><span>${r.createdAt.slice(0, 10)}</span></div>
      <div class="row"><span>用时 <span class="en">Time spent</span></span><span>${fmtDuration(r.durationMs)}</span></div></div>
    <div class="card"><p>答题得分 <span class="en">Answers</span></p>
      <p class="big">${r.answers.percent}%</p><p class="en">${r.answers.score} / ${r.answers.maxScore}</p>${answerRows}</div>
    ${
      dub
        ? html`<div class="card"><p>配音 <span class="en">Dubbing</span>（${dub.scoredLines} 句）</p>
          <p class="big">${dub.average ?? '—'}</p>
          <p class="en">${dub.improvement !== null ? `第二次平均提高 ${dub.improvement} 分 · ` : ''}${
            dub.emotionMatchRate !== null ? `情绪匹配 ${Math.round(dub.emotionMatchRate * 100)}%` : ''
          }</p>${lineRows}</div>`
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

/** The shared report page: works without login, shows only the one signed report. */
export async function h5ReportRoutes(app: FastifyInstance): Promise<void> {
  app.get('/h5/report/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const check = verifyShareToken(await sharedSecret(app.db, SHARE_SECRET_KEY), token.slice(0, 600));
    if (!check.ok && check.reason === 'expired') {
      return sendHtml(
        reply,
        410,
        '链接已过期',
        html`<h1 class="error">链接已过期</h1><p>请让对方重新分享报告。</p><p class="en">This link has expired. Ask for a new one.</p>`,
      );
    }
    if (!check.ok) {
      return sendHtml(
        reply,
        403,
        '链接无效',
        html`<h1 class="error">链接无效</h1><p>链接不完整或已被修改。</p><p class="en">This link is invalid or has been altered.</p>`,
      );
    }
    const record = await app.db
      .selectFrom('question_records')
      .selectAll()
      .where('id', '=', check.recordId)
      .executeTakeFirst();
    if (!record) {
      return sendHtml(
        reply,
        404,
        '报告不存在',
        html`<h1 class="error">报告不存在</h1><p class="en">This report no longer exists.</p>`,
      );
    }
    const report = await buildReport({ db: app.db, storage: app.storage }, record);
    return sendHtml(reply, 200, `${report.film.title} · 训练报告`, reportBody(report));
  });
}
