import type {
  FilmDetailRequest,
  FilmListRequest,
  LoginPwdRequest,
  Part,
  RunHistoryRequest,
  RunStateRequest,
  SaveQuestionRecordRequest,
  SoundSuggestRequest,
  WxLoginStatusRequest,
} from './contract';
import type { CallResponse } from './contract/call-schemas';
import {
  type CallName,
  ENDPOINTS,
  RUN_ENDPOINTS,
  type RunCallName,
  SESSION_ENDPOINTS,
  WARMUP_ENDPOINTS,
  type WarmupCallName,
} from './contract/endpoints';
import type { Payload } from './encode';
import { type RequestOptions, request } from './request';

/** Per-call options a caller may pass (everything else comes from ENDPOINTS, docs/api.md). */
export type CallOptions = Pick<RequestOptions, 'signal' | 'timeoutMs' | 'onUploadProgress' | 'headers'>;

/** Every call the client sends: the film, sign-in and report calls and the run calls (docs/api.md). */
const ALL_ENDPOINTS = { ...ENDPOINTS, ...RUN_ENDPOINTS, ...WARMUP_ENDPOINTS };
type AnyCallName = CallName | RunCallName | WarmupCallName;

async function devCheck(name: AnyCallName, direction: 'request' | 'response', value: unknown) {
  // Behind DEV so the production build drops the import and with it zod.
  if (import.meta.env.DEV) {
    const { checkContract } = await import('./validate');
    checkContract(name, direction, value);
  }
}

/**
 * Sends one call of the table: method, path, origin and body kind come from the contract, and so does
 * the type of its answer (contract/call-schemas.ts).
 */
export async function call<N extends AnyCallName>(
  name: N,
  data?: Payload,
  opts: CallOptions = {},
): Promise<CallResponse<N>> {
  const ep = ALL_ENDPOINTS[name];
  await devCheck(name, 'request', data);
  const result = await request<CallResponse<N>>({
    method: ep.method,
    path: ep.path,
    origin: ep.origin,
    body: ep.body,
    data,
    ...opts,
  });
  await devCheck(name, 'response', result);
  return result;
}

type Rec = Record<string, unknown>;
const rec = <T extends object>(v: T) => v as unknown as Rec;

export const getAuthQRCode = (opts?: CallOptions) => call('getAuthQRCode', undefined, opts);
export const accountLogin = (data: LoginPwdRequest, opts?: CallOptions) =>
  call('accountLogin', rec(data), opts);
export const getWxLoginStatus = (data: WxLoginStatusRequest, opts?: CallOptions) =>
  call('getWxLoginStatus', rec(data), opts);

export const getMovies_prpo = (data: FilmListRequest = {}, opts?: CallOptions) =>
  call('getMovies_prpo', rec(data), opts);
export const getMovieDetail_prpo = (data: FilmDetailRequest, opts?: CallOptions) =>
  call('getMovieDetail_prpo', rec(data), opts);
export const saveQA_prpo = (data: SaveQuestionRecordRequest, opts?: CallOptions) =>
  call('saveQA_prpo', rec(data), opts);
export const getPrpo_report = (data: { id: string } | { runId: string }, opts?: CallOptions) =>
  call('getPrpo_report', data, opts);
export const getReportH5Url = (data: { id?: string; runId?: string } = {}, opts?: CallOptions) =>
  call('getReportH5Url', data, opts);

export const getMovies_prpt = (data: FilmListRequest = {}, opts?: CallOptions) =>
  call('getMovies_prpt', rec(data), opts);
export const getMovieDetail_prpt = (data: FilmDetailRequest, opts?: CallOptions) =>
  call('getMovieDetail_prpt', rec(data), opts);
export const saveQA_prpt = (data: SaveQuestionRecordRequest, opts?: CallOptions) =>
  call('saveQA_prpt', rec(data), opts);
export const getSoundSuggest = (data: SoundSuggestRequest, opts?: CallOptions) =>
  call('getSoundSuggest', rec(data), opts);
/**
 * docs/api.md, get_info_by_id: the prpt report takes an empty payload with the JSON header; the server answers the learner's latest training;
 * `runId` or `filmId` (that film's latest run) reach any other (docs/api.md, get_info_by_id).
 */
export const getPrpTReport = (data?: { runId?: string; filmId?: string }, opts?: CallOptions) =>
  call('getPrpTReport', data && (data.runId || data.filmId) ? rec(data) : undefined, {
    ...opts,
    headers: { 'Content-Type': 'application/json', ...opts?.headers },
  });
export const getPrpTReportH5Url = (data: { id?: string; runId?: string } = {}, opts?: CallOptions) =>
  call('getPrpTReportH5Url', data, opts);
/** revoke_report_url: ends every share link of the run given out so far (docs/api.md). */
export const revokeReportH5Url = (part: Part, data: { id?: string; runId?: string }, opts?: CallOptions) =>
  call(part === 'prpo' ? 'revokeReportH5Url' : 'revokePrpTReportH5Url', data, opts);

/** get_run: the state of the learner's latest run of a film (or of `runId`) in the part. */
export const getRun = (part: Part, data: RunStateRequest, opts?: CallOptions) =>
  call(part === 'prpo' ? 'getRun_prpo' : 'getRun_prpt', rec(data), opts);
/** get_run_history: the learner's runs in the part, most recently active first. */
export const getRunHistory = (part: Part, data: RunHistoryRequest = {}, opts?: CallOptions) =>
  call(part === 'prpo' ? 'getRunHistory_prpo' : 'getRunHistory_prpt', rec(data), opts);

/** A session call (docs/api.md) for `token`, read before the browser's copy is wiped. */
const sessionCall = <T>(
  ep: (typeof SESSION_ENDPOINTS)[keyof typeof SESSION_ENDPOINTS],
  token: string,
  opts: CallOptions,
) =>
  request<T>({
    method: ep.method,
    path: ep.path,
    origin: ep.origin,
    body: ep.body,
    data: {},
    ...opts,
    headers: { ...opts.headers, token },
  });

/**
 * POST /site_products/logout (docs/api.md): revokes the session of `token` on the server. Not in the
 * table of calls (docs/api.md), so it goes through `request` directly.
 */
export const logoutSession = (token: string, opts: CallOptions = {}) =>
  sessionCall<null>(SESSION_ENDPOINTS.logout, token, opts);

/** POST /site_products/logout_all (docs/api.md): ends every session of the token's learner. */
export const logoutAllSessions = (token: string, opts: CallOptions = {}) =>
  sessionCall<{ ended: number }>(SESSION_ENDPOINTS.logoutAll, token, opts);

/** The fields sent with a take; the wav goes in field `file` named `<subtitlesId>.wav` (docs/api.md, "AI service"). */
export interface SpeechEmotionUpload {
  file: Blob;
  subtitlesId: string;
  filmId: string;
  attempt: 1 | 2;
  takeId?: string;
  /** The training run the take belongs to (docs/api.md, "Runs"); absent: the film's latest run. */
  runId?: string;
}

export function speechEmotionForm(up: SpeechEmotionUpload): FormData {
  const form = new FormData();
  form.append('subtitlesId', up.subtitlesId);
  form.append('filmId', up.filmId);
  form.append('attempt', String(up.attempt));
  if (up.takeId) form.append('takeId', up.takeId);
  if (up.runId) form.append('runId', up.runId);
  // A named File rather than append()'s filename argument, which some runtimes ignore for plain Blobs.
  const name = `${up.subtitlesId}.wav`;
  form.append('file', new File([up.file], name, { type: up.file.type || 'audio/wav' }), name);
  return form;
}

/** POST /speech_emotion on the AI service, multipart. Pass `onUploadProgress` to follow the upload. */
export const discernSpeechEmotion = (data: FormData | SpeechEmotionUpload, opts?: CallOptions) =>
  call('discernSpeechEmotion', data instanceof FormData ? data : speechEmotionForm(data), opts);

/** GET /voice_warmup on the AI service: whether to offer the voice warm-up (status none). */
export const getVoiceWarmup = (opts?: CallOptions) => call('getVoiceWarmup', undefined, opts);

/** POST /voice_warmup on the AI service: the warm-up recording (a wav in field `file`). */
export const saveVoiceWarmup = (file: Blob, opts?: CallOptions) => {
  const form = new FormData();
  form.append('file', new File([file], 'warmup.wav', { type: file.type || 'audio/wav' }), 'warmup.wav');
  return call('saveVoiceWarmup', form, opts);
};

/** POST /voice_warmup_skip on the AI service: the learner skips the warm-up. */
export const skipVoiceWarmup = (opts?: CallOptions) => call('skipVoiceWarmup', {}, opts);
