/** What a word check reads (server/words/index.ts): its own file so the engines need not import their dispatcher. */
export interface WordCheckInput {
  /** The take, mono. */
  samples: Float32Array;
  sampleRate: number;
  /** The line as the subtitle shows it. */
  text: string;
  /** The film's language (BCP 47, e.g. "en", "zh-CN", "de"), null when the film declares none. */
  language: string | null;
}
