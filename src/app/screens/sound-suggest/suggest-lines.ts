import type { SoundSuggestData } from '../../../api/contract';

export type FigureKey = keyof SoundSuggestData['figures'];

export interface SuggestLine {
  /** "音域" / "Range": the part before the first colon, when there is one. */
  head: string | null;
  body: string;
  /** The figures this line talks about, shown beside it. */
  figures: FigureKey[];
}

// The interpretation lines start with a topic ("音域：", "Pace:"); the topic says which figures
// the line refers to. Unknown topics simply show no figure.
const TOPICS: Array<[RegExp, FigureKey[]]> = [
  [/^(总评|overall)/i, ['scoredLines', 'average']],
  [/^(音域|range|pitch)/i, ['pitchRangeSemitones']],
  [/^(语调|melody|intonation)/i, ['average']],
  [/^(能量|energy|loud)/i, ['loudnessRangeDb']],
  [/^(节奏|pace|timing|rate)/i, ['syllablesPerSecond']],
  [/^(情绪|情感|emotion)/i, ['emotionMatchRate']],
  [/^(进步|progress)/i, ['improvement']],
];

export function parseSuggestLine(line: string): SuggestLine {
  const m = /^([^：:]{1,24})[：:]\s*(.+)$/.exec(line);
  const head = m ? m[1].trim() : null;
  const body = m ? m[2].trim() : line;
  const topic = head ?? line;
  const figures = TOPICS.find(([re]) => re.test(topic))?.[1] ?? [];
  return { head, body, figures };
}
