/**
 * The calls of docs/api.md: each client call name mapped to its method, path, origin and body kind.
 * The client wrapper and the server routes both read this, so a path cannot drift between them.
 */
export type Method = 'GET' | 'POST';
/** json: application/json; form: x-www-form-urlencoded; multipart: files; query: GET parameters. */
export type BodyKind = 'query' | 'json' | 'form' | 'multipart';
export type Origin = 'producer' | 'ai';

export interface Endpoint {
  method: Method;
  path: string;
  origin: Origin;
  body: BodyKind;
  /** False for the login calls; everything else needs the token header. */
  auth: boolean;
}

export const ENDPOINTS = {
  getAuthQRCode: {
    method: 'GET',
    path: '/site_products/qr_url',
    origin: 'producer',
    body: 'query',
    auth: false,
  },
  accountLogin: {
    method: 'POST',
    path: '/site_products/login_pwd',
    origin: 'producer',
    body: 'json',
    auth: false,
  },
  getWxLoginStatus: {
    method: 'GET',
    path: '/site_products/get_wx_login_status',
    origin: 'producer',
    body: 'query',
    auth: false,
  },
  getMovies_prpo: {
    method: 'POST',
    path: '/active_relation_one/show_film_picture',
    origin: 'producer',
    body: 'form',
    auth: true,
  },
  getMovieDetail_prpo: {
    method: 'POST',
    path: '/active_relation_one/get_film_info',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  saveQA_prpo: {
    method: 'POST',
    path: '/active_relation_one/save_question_record',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  getPrpo_report: {
    method: 'GET',
    path: '/active_relation_one/get_info_by_id',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getReportH5Url: {
    method: 'GET',
    path: '/active_relation_one/get_report_url',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getMovies_prpt: {
    method: 'GET',
    path: '/active_relation_two/show_film_picture',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getMovieDetail_prpt: {
    method: 'POST',
    path: '/active_relation_two/get_film_info',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  saveQA_prpt: {
    method: 'POST',
    path: '/active_relation_two/save_question_record',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  getSoundSuggest: {
    method: 'POST',
    path: '/active_relation_two/get_sounds_interpretation',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  getPrpTReport: {
    method: 'GET',
    path: '/active_relation_two/get_info_by_id',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getPrpTReportH5Url: {
    method: 'GET',
    path: '/active_relation_two/get_report_url',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  discernSpeechEmotion: {
    method: 'POST',
    path: '/speech_emotion',
    origin: 'ai',
    body: 'multipart',
    auth: true,
  },
} as const satisfies Record<string, Endpoint>;

export type CallName = keyof typeof ENDPOINTS;

/**
 * A learner's runs, beside ENDPOINTS (docs/api.md, "Runs"), and ending a run's share links. Same
 * conventions as ENDPOINTS.
 */
export const RUN_ENDPOINTS = {
  getRun_prpo: {
    method: 'GET',
    path: '/active_relation_one/get_run',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getRun_prpt: {
    method: 'GET',
    path: '/active_relation_two/get_run',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getRunHistory_prpo: {
    method: 'GET',
    path: '/active_relation_one/get_run_history',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  getRunHistory_prpt: {
    method: 'GET',
    path: '/active_relation_two/get_run_history',
    origin: 'producer',
    body: 'query',
    auth: true,
  },
  /** Ends the share links of a run given out so far (docs/api.md, revoke_report_url). */
  revokeReportH5Url: {
    method: 'POST',
    path: '/active_relation_one/revoke_report_url',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  revokePrpTReportH5Url: {
    method: 'POST',
    path: '/active_relation_two/revoke_report_url',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
} as const satisfies Record<string, Endpoint>;

export type RunCallName = keyof typeof RUN_ENDPOINTS;

/**
 * Account calls beside ENDPOINTS (docs/api.md, "Sign-in"): logout revokes the session on the
 * server, so a kiosk's token is dead once the learner leaves. Same conventions as ENDPOINTS.
 */
export const SESSION_ENDPOINTS = {
  logout: {
    method: 'POST',
    path: '/site_products/logout',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
  /** Sign out everywhere: every session of the learner ends (kiosks, browsers, phones). */
  logoutAll: {
    method: 'POST',
    path: '/site_products/logout_all',
    origin: 'producer',
    body: 'json',
    auth: true,
  },
} as const satisfies Record<string, Endpoint>;

/**
 * The voice warm-up, beside ENDPOINTS (docs/api.md, "Voice warm-up"): its state, the recording,
 * and skipping it. Same conventions as ENDPOINTS.
 */
export const WARMUP_ENDPOINTS = {
  getVoiceWarmup: {
    method: 'GET',
    path: '/voice_warmup',
    origin: 'ai',
    body: 'query',
    auth: true,
  },
  saveVoiceWarmup: {
    method: 'POST',
    path: '/voice_warmup',
    origin: 'ai',
    body: 'multipart',
    auth: true,
  },
  skipVoiceWarmup: {
    method: 'POST',
    path: '/voice_warmup_skip',
    origin: 'ai',
    body: 'json',
    auth: true,
  },
} as const satisfies Record<string, Endpoint>;

export type WarmupCallName = keyof typeof WARMUP_ENDPOINTS;

/** Mount points of the two services. */
export const PRODUCER_BASE = '/producer';
export const AI_BASE = '/ai';
