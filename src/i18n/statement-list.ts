/**
 * The reviewer's list of every learner-facing statement in one language, generated from the
 * catalogue (`npm run statements` writes docs/statements.zh.md and docs/statements.en.md; a unit test
 * fails when they are out of date).
 */
import { ERROR_IDS, ERROR_MESSAGES } from './error-rows';
import type { Lang } from './format';
import { CATALOGUE } from './index';
import { SERVER_MESSAGE_IDS } from './server-messages';
import { SERVER_CATALOGUE } from './server-text';
import { STATEMENTS, type StatementId } from './statements';

const SECTIONS: Array<{ prefix: string; title: Record<Lang, string> }> = [
  { prefix: 'take.', title: { zh: '一句录音的反馈', en: 'Feedback on one take' } },
  { prefix: 'words.', title: { zh: '一句录音说出的词', en: 'The words of one take' } },
  { prefix: 'warmup.', title: { zh: '声音热身', en: 'Voice warm-up' } },
  { prefix: 'suggest.', title: { zh: '声音建议（整部影片）', en: 'Voice suggestion (a whole film)' } },
  { prefix: 'topic.', title: { zh: '声音建议的标题', en: 'Voice suggestion topics' } },
  { prefix: 'exercise.', title: { zh: '练习方法', en: 'Exercises' } },
  { prefix: 'report.', title: { zh: '报告的亮点与练习', en: 'Report strengths and practice' } },
  { prefix: 'practice.', title: { zh: '报告的练习方法', en: 'Report exercises' } },
  { prefix: 'melody.', title: { zh: '演员语调的合成版本', en: "Your voice with the actor's melody" } },
  { prefix: 'watchDub.', title: { zh: '看我的配音', en: 'Watch my dub' } },
  { prefix: 'h5.', title: { zh: '分享页（手机）', en: 'Share page (phone)' } },
  { prefix: 'qr.', title: { zh: '扫码登录确认页（手机）', en: 'QR sign-in page (phone)' } },
  { prefix: 'emotion.', title: { zh: '情绪名称', en: 'Emotion names' } },
  { prefix: 'area.', title: { zh: '评分项名称', en: 'Score areas' } },
];

const HEAD: Record<Lang, string> = {
  zh: `# 学员看到的全部语句（中文）

由 \`npm run statements\` 从 src/i18n 的语句表生成，请勿手改。每条语句一个编号；\`{名称}\` 是测得的数值，
\`{x, select, …}\` / \`{n, plural, …}\` 按取值选一种说法，\`{n, number, ::.0}\` 保留一位小数。
`,
  en: `# Every statement a learner reads (English)

Generated from the catalogue in src/i18n by \`npm run statements\`; do not edit. One id per statement;
\`{name}\` is a measured value, \`{x, select, …}\` / \`{n, plural, …}\` picks a wording by value, and
\`{n, number, ::.0}\` shows one decimal.
`,
};

const ERRORS_TITLE: Record<Lang, string> = { zh: '出错时的提示', en: 'When a call fails' };
const SERVER_TITLE: Record<Lang, string> = {
  zh: '服务的回答（在请求的语言中）',
  en: "The services' answers (in the request's language)",
};

const row = (id: string, text: string) => `- \`${id}\`: ${text.replace(/\n/g, ' ')}`;

export function statementList(lang: Lang): string {
  const ids = Object.keys(STATEMENTS) as StatementId[];
  const parts = [HEAD[lang]];
  for (const section of SECTIONS) {
    const mine = ids.filter((id) => id.startsWith(section.prefix));
    parts.push(`## ${section.title[lang]}\n\n${mine.map((id) => row(id, CATALOGUE[lang][id])).join('\n')}\n`);
  }
  parts.push(
    `## ${ERRORS_TITLE[lang]}\n\n${ERROR_IDS.map((id) => row(id, ERROR_MESSAGES[lang][id])).join('\n')}\n`,
    `## ${SERVER_TITLE[lang]}\n\n${SERVER_MESSAGE_IDS.map((id) => row(id, SERVER_CATALOGUE[lang][id])).join('\n')}\n`,
  );
  return parts.join('\n');
}

/** Every statement belongs to a section, so the list is the whole catalogue. */
export const unlisted = (): StatementId[] =>
  (Object.keys(STATEMENTS) as StatementId[]).filter((id) => !SECTIONS.some((s) => id.startsWith(s.prefix)));
