/** SubRip (.srt) writing and parsing with millisecond precision. */
export interface SrtCue {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
}

export function formatSrtTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

export function formatSrt(cues: SrtCue[]): string {
  return `${cues
    .map((c) => `${c.index}\n${formatSrtTime(c.startMs)} --> ${formatSrtTime(c.endMs)}\n${c.text}\n`)
    .join('\n')}`;
}

const TIME = /^(\d{2}):(\d{2}):(\d{2})[,.](\d{3})$/;

export function parseSrtTime(text: string): number {
  const m = TIME.exec(text.trim());
  if (!m) throw new Error(`not an srt time: "${text}"`);
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]);
}

export function parseSrt(source: string): SrtCue[] {
  const blocks = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .trim()
    .split(/\n{2,}/);
  return blocks.map((block, n) => {
    const [indexLine, timeLine, ...textLines] = block.split('\n');
    const index = Number(indexLine);
    if (!Number.isInteger(index)) throw new Error(`srt block ${n + 1}: bad cue number "${indexLine}"`);
    const [start, end] = (timeLine ?? '').split('-->');
    if (end === undefined) throw new Error(`srt cue ${index}: bad time line "${timeLine}"`);
    const cue = { index, startMs: parseSrtTime(start), endMs: parseSrtTime(end), text: textLines.join('\n') };
    if (cue.endMs <= cue.startMs) throw new Error(`srt cue ${index}: ends before it starts`);
    return cue;
  });
}
