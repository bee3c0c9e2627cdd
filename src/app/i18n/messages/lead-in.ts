/** A retake's lead-in (features/dub/lead-in.ts) and the pitch guide (features/dub/pitch-guide.tsx). */
const zh = {
  'leadIn.label': '重录前先播放上一句',
  'leadIn.actor': '原声',
  'leadIn.take': '我的录音',
  'pitchGuide.label': '音高引导：橙色为原声，青色为你（以各自的中位音高为准）',
} as const;

const en = {
  'leadIn.label': 'Before a retake, play the line before with',
  'leadIn.actor': 'the actor',
  'leadIn.take': 'my take',
  'pitchGuide.label': 'Pitch guide: orange is the actor, teal is you (each around their own median pitch)',
} as const satisfies Record<keyof typeof zh, string>;

export const leadInMessages = { zh, en };
