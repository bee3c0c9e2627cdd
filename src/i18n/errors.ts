/**
 * Why a call failed, in both languages: the error rows of the shared catalogue, apart from the
 * statements so the app's entry chunk carries only these. The server answers `{code, msg, data}`
 * with `msg` in Chinese (the contract's catalogue) and the row's id in `data.msgId`; the client words
 * the id in the learner's language (src/app/i18n/error-text.ts). Listed in docs/statements.*.md.
 */
import type { Lang } from './format';

/** The Chinese rows: in the entry chunk, like the app's first Chinese messages. */
const ERRORS_ZH = {
  'error.badCredentials': '账号或密码错误',
  'error.loginExpired': '登录信息已失效',
  'error.loginAgain': '登录信息已失效，请重新登录',
  'error.network': '网络异常，请检查您的网络设置',
  'error.server': '服务器异常，请稍后再试',
  'error.networkLater': '网络异常，请稍后再试',
  'error.default': '服务器异常，请稍后再试!',
  'error.aborted': '请求已取消',
  'error.badRequest': '请求有误，请检查后重试',
  'error.forbidden': '没有权限访问',
  'error.notFound': '内容不存在',
  'error.filmNotFound': '影片不存在',
  'error.lineNotFound': '字幕不存在',
  'error.runNotFound': '训练记录不存在',
  'error.reportNotFound': '报告不存在',
  'error.noPartTwoRun': '还没有第二部分的训练记录，请先完成答题和配音',
  'error.noTakes': '还没有配音记录，请先完成配音',
  'error.attemptsUsed': '这句已录过两次，不能再录',
  'error.tooLarge': '上传内容过大',
  'error.unsupportedMedia': '不支持的文件类型',
  'error.rateLimited': '登录失败次数过多，请 {minutes} 分钟后再试',
  'error.busy': '服务器繁忙，请稍后再试',
  'error.scoringBusy': '评分服务繁忙，请稍后再试',
  'error.enterCredentials': '请输入账号和密码',
} as const satisfies Record<string, string>;

export type ErrorId = keyof typeof ERRORS_ZH;
/** Every row's id (the Chinese rows name them all). */
export const ERROR_IDS = Object.keys(ERRORS_ZH) as ErrorId[];

/**
 * The rows by language. English arrives with the app's English messages (src/app/i18n/index.ts
 * loads ./errors.en beside them) so the first screen carries one language; the server, the reviewer
 * lists and the tests take both from `./error-rows`.
 */
const rows: Partial<Record<Lang, Record<ErrorId, string>>> = { zh: ERRORS_ZH };

export function setErrorRows(lang: Lang, table: Record<ErrorId, string>): void {
  rows[lang] = table;
}

export const errorRowsZh = (): Record<ErrorId, string> => ERRORS_ZH;

export const isErrorId = (id: unknown): id is ErrorId =>
  typeof id === 'string' && Object.hasOwn(ERRORS_ZH, id);

/** An error's words in a language; `{seconds}`-style values are filled in. */
export function errorText(
  id: ErrorId,
  lang: Lang,
  values: Readonly<Record<string, string | number>> = {},
): string {
  // A language whose rows are not here yet reads Chinese, the catalogue's own language.
  return (rows[lang] ?? ERRORS_ZH)[id].replace(/\{(\w+)\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}
