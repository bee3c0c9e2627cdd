/**
 * Why a call failed, in both languages: the error rows of the shared catalogue, apart from the
 * statements so the app's entry chunk carries only these. The server answers `{code, msg, data}`
 * with `msg` in Chinese (the contract's catalogue) and the row's id in `data.msgId`; the client words
 * the id in the learner's language (src/app/i18n/error-text.ts). Listed in docs/statements.*.md.
 */
import type { Lang } from './format';

export const ERROR_IDS = [
  'error.badCredentials',
  'error.loginExpired',
  'error.loginAgain',
  'error.network',
  'error.server',
  'error.networkLater',
  'error.default',
  'error.aborted',
  'error.badRequest',
  'error.forbidden',
  'error.notFound',
  'error.filmNotFound',
  'error.lineNotFound',
  'error.runNotFound',
  'error.reportNotFound',
  'error.noPartTwoRun',
  'error.noTakes',
  'error.tooLarge',
  'error.unsupportedMedia',
  'error.rateLimited',
  'error.busy',
  'error.scoringBusy',
  'error.enterCredentials',
] as const;
export type ErrorId = (typeof ERROR_IDS)[number];

export const ERROR_MESSAGES: Record<Lang, Record<ErrorId, string>> = {
  zh: {
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
    'error.tooLarge': '上传内容过大',
    'error.unsupportedMedia': '不支持的文件类型',
    'error.rateLimited': '登录失败次数过多，请 {minutes} 分钟后再试',
    'error.busy': '服务器繁忙，请稍后再试',
    'error.scoringBusy': '评分服务繁忙，请稍后再试',
    'error.enterCredentials': '请输入账号和密码',
  },
  en: {
    'error.badCredentials': 'Wrong account or password',
    'error.loginExpired': 'Your login has expired',
    'error.loginAgain': 'Your login has expired: log in again',
    'error.network': 'Network error: check your connection',
    'error.server': 'Server error, please try again later',
    'error.networkLater': 'Network error, please try again later',
    'error.default': 'Server error, please try again later',
    'error.aborted': 'Request cancelled',
    'error.badRequest': 'The request was not accepted: check it and try again',
    'error.forbidden': 'You have no access to this',
    'error.notFound': 'Not found',
    'error.filmNotFound': 'Film not found',
    'error.lineNotFound': 'This line does not exist',
    'error.runNotFound': 'Training record not found',
    'error.reportNotFound': 'Report not found',
    'error.noPartTwoRun': 'No part-two training yet: answer the questions and dub first',
    'error.noTakes': 'No dubbing yet: dub a line first',
    'error.tooLarge': 'The upload is too large',
    'error.unsupportedMedia': 'This file type is not supported',
    'error.rateLimited': 'Too many failed sign-ins: try again in {minutes} min',
    'error.busy': 'The server is busy, please try again shortly',
    'error.scoringBusy': 'Scoring is busy: your take will be scored shortly',
    'error.enterCredentials': 'Enter your account and password',
  },
};

export const isErrorId = (id: unknown): id is ErrorId =>
  typeof id === 'string' && (ERROR_IDS as readonly string[]).includes(id);

/** An error's words in a language; `{seconds}`-style values are filled in. */
export function errorText(
  id: ErrorId,
  lang: Lang,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return ERROR_MESSAGES[lang][id].replace(/\{(\w+)\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}
