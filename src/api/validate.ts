import type { z } from 'zod';
import * as c from './contract';
import type { CallName, RunCallName } from './contract/endpoints';

/**
 * Development-only check of every call against the contract (loaded with a dynamic import behind
 * `import.meta.env.DEV`, so production bundles carry no zod). A mismatch is logged, never thrown:
 * a learner must not lose a screen because a field drifted.
 */
const schemas: Record<CallName | RunCallName, { req: z.ZodType | null; res: z.ZodType }> = {
  getAuthQRCode: { req: null, res: c.qrUrlData },
  accountLogin: { req: c.loginPwdRequest, res: c.userInfo },
  getWxLoginStatus: { req: c.wxLoginStatusRequest, res: c.wxLoginStatusData },
  getMovies_prpo: { req: c.filmListRequest, res: c.filmList },
  getMovieDetail_prpo: { req: c.filmDetailRequest, res: c.filmDetail },
  saveQA_prpo: { req: c.saveQuestionRecordRequest, res: c.saveQuestionRecordData },
  getPrpo_report: { req: c.reportByIdRequest, res: c.report },
  getReportH5Url: { req: c.reportUrlRequest, res: c.reportUrlData },
  getMovies_prpt: { req: c.filmListRequest, res: c.filmList },
  getMovieDetail_prpt: { req: c.filmDetailRequest, res: c.filmDetail },
  saveQA_prpt: { req: c.saveQuestionRecordRequest, res: c.saveQuestionRecordData },
  getSoundSuggest: { req: c.soundSuggestRequest, res: c.soundSuggestData },
  getPrpTReport: { req: null, res: c.report },
  getPrpTReportH5Url: { req: c.reportUrlRequest, res: c.reportUrlData },
  discernSpeechEmotion: { req: null, res: c.speechScore },
  getRun_prpo: { req: c.runStateRequest, res: c.runStateData },
  getRun_prpt: { req: c.runStateRequest, res: c.runStateData },
  getRunHistory_prpo: { req: c.runHistoryRequest, res: c.runHistoryData },
  getRunHistory_prpt: { req: c.runHistoryRequest, res: c.runHistoryData },
};

export type Direction = 'request' | 'response';

/** Returns the issues found (empty when the value fits), after logging them. */
export function checkContract(name: CallName | RunCallName, direction: Direction, value: unknown): string[] {
  const schema = direction === 'request' ? schemas[name].req : schemas[name].res;
  if (!schema || value instanceof FormData) return [];
  const result = schema.safeParse(value ?? {});
  if (result.success) return [];
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  console.error(`[contract] ${name} ${direction} does not match the contract:\n  ${issues.join('\n  ')}`);
  return issues;
}
