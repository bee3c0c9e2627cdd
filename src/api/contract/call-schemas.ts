import type { z } from 'zod';
import { loginPwdRequest, qrUrlData, userInfo, wxLoginStatusData, wxLoginStatusRequest } from './account';
import { saveQuestionRecordData, saveQuestionRecordRequest } from './answers';
import type { CallName, RunCallName, WarmupCallName } from './endpoints';
import { filmDetail, filmDetailRequest, filmList, filmListRequest } from './films';
import {
  report,
  reportByIdRequest,
  reportUrlData,
  reportUrlRequest,
  revokeReportUrlData,
  soundSuggestData,
  soundSuggestRequest,
} from './reports';
import { runHistoryData, runHistoryRequest, runStateData, runStateRequest } from './runs';
import { speechScore, voiceWarmupState } from './speech';

/**
 * Each call's request and answer schema (docs/api.md): the client's call() takes its answer type from
 * here, and the development check (src/api/validate.ts) checks both directions against it. `req` is
 * null where the body is a form with a file or may be empty.
 */
export const CALL_SCHEMAS = {
  getAuthQRCode: { req: null, res: qrUrlData },
  accountLogin: { req: loginPwdRequest, res: userInfo },
  getWxLoginStatus: { req: wxLoginStatusRequest, res: wxLoginStatusData },
  getMovies_prpo: { req: filmListRequest, res: filmList },
  getMovieDetail_prpo: { req: filmDetailRequest, res: filmDetail },
  saveQA_prpo: { req: saveQuestionRecordRequest, res: saveQuestionRecordData },
  getPrpo_report: { req: reportByIdRequest, res: report },
  getReportH5Url: { req: reportUrlRequest, res: reportUrlData },
  getMovies_prpt: { req: filmListRequest, res: filmList },
  getMovieDetail_prpt: { req: filmDetailRequest, res: filmDetail },
  saveQA_prpt: { req: saveQuestionRecordRequest, res: saveQuestionRecordData },
  getSoundSuggest: { req: soundSuggestRequest, res: soundSuggestData },
  getPrpTReport: { req: null, res: report },
  getPrpTReportH5Url: { req: reportUrlRequest, res: reportUrlData },
  revokeReportH5Url: { req: reportUrlRequest, res: revokeReportUrlData },
  revokePrpTReportH5Url: { req: reportUrlRequest, res: revokeReportUrlData },
  discernSpeechEmotion: { req: null, res: speechScore },
  getRun_prpo: { req: runStateRequest, res: runStateData },
  getRun_prpt: { req: runStateRequest, res: runStateData },
  getRunHistory_prpo: { req: runHistoryRequest, res: runHistoryData },
  getRunHistory_prpt: { req: runHistoryRequest, res: runHistoryData },
  getVoiceWarmup: { req: null, res: voiceWarmupState },
  saveVoiceWarmup: { req: null, res: voiceWarmupState },
  skipVoiceWarmup: { req: null, res: voiceWarmupState },
} as const satisfies Record<
  CallName | RunCallName | WarmupCallName,
  { req: z.ZodType | null; res: z.ZodType }
>;

/** The data a call answers with, as its contract schema gives it. */
export type CallResponse<N extends CallName | RunCallName | WarmupCallName> = z.infer<
  (typeof CALL_SCHEMAS)[N]['res']
>;
