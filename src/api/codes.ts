/**
 * The two codes the client acts on (spec §9). Mirrors `Code` in the contract; kept here so the browser
 * bundle does not pull zod in through `contract/envelope.ts` (a test pins that both agree).
 */
export const OK_CODE = 200;
export const LOGIN_EXPIRED_CODE = 1002;
