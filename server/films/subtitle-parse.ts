/** One cue of an .srt or .vtt file. `line` is the 1-based line of its timing row, for error messages. */
export interface Cue {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
  line: number;
}

export class SubtitleParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'SubtitleParseError';
  }
}

// 00:01:02,345 (srt) or 00:01:02.345 / 01:02.345 (vtt).
const TIME = /^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})[.,](\d{3})$/;

export function parseTimestamp(text: string): number | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  const [, h = '0', min, s, ms] = m;
  if (Number(min) > 59 || Number(s) > 59) return null;
  return ((Number(h) * 60 + Number(min)) * 60 + Number(s)) * 1000 + Number(ms);
}

/**
 * Parses SubRip or WebVTT into cues in file order. Blocks are separated by blank lines; the timing
 * row is `start --> end` (vtt settings after the end time are ignored).
 */
/**
 * A cue is one spoken line (two rows of about 40 characters on screen); anything far longer is not a
 * subtitle, and every film page would carry it (get_film_info sends each line's text).
 */
export const MAX_CUE_CHARS = 500;

const VTT_ESCAPES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&nbsp;': '\u00a0' };
const fromVttText = (text: string) => text.replace(/&(lt|gt|amp|nbsp);/g, (e) => VTT_ESCAPES[e]);

export function parseSubtitles(source: string, format: 'srt' | 'vtt'): Cue[] {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/);
  const cues: Cue[] = [];
  let i = 0;
  if (format === 'vtt') {
    if (!lines[0]?.startsWith('WEBVTT'))
      throw new SubtitleParseError(1, 'a .vtt file must start with WEBVTT');
    // Skip the header block.
    while (i < lines.length && lines[i].trim() !== '') i++;
  }
  while (i < lines.length) {
    while (i < lines.length && lines[i].trim() === '') i++;
    if (i >= lines.length) break;
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i].trim() !== '') block.push(lines[i++]);
    if (format === 'vtt' && /^(NOTE|STYLE|REGION)\b/.test(block[0])) continue;
    const timingAt = block.findIndex((l) => l.includes('-->'));
    if (timingAt < 0) throw new SubtitleParseError(blockStart + 1, 'expected a timing row "start --> end"');
    if (format === 'srt' && timingAt !== 1) {
      throw new SubtitleParseError(blockStart + 1, 'expected a cue number followed by a timing row');
    }
    if (format === 'srt' && !/^\d+$/.test(block[0].trim())) {
      throw new SubtitleParseError(blockStart + 1, `expected a cue number, found "${block[0].trim()}"`);
    }
    const lineNo = blockStart + timingAt + 1;
    const [rawStart, rest = ''] = block[timingAt].split('-->');
    const startMs = parseTimestamp(rawStart);
    const endMs = parseTimestamp(rest.trim().split(/\s+/)[0] ?? '');
    if (startMs === null || endMs === null) {
      throw new SubtitleParseError(
        lineNo,
        `bad time in "${block[timingAt].trim()}" (use 00:00:01,000 --> 00:00:02,500)`,
      );
    }
    const raw = block
      .slice(timingAt + 1)
      .join('\n')
      .trim();
    // A cue's text is plain text: WebVTT's escapes are read as the characters they stand for.
    const text = format === 'vtt' ? fromVttText(raw) : raw;
    if (!text) throw new SubtitleParseError(lineNo, 'cue has no text');
    if (text.length > MAX_CUE_CHARS) {
      throw new SubtitleParseError(
        lineNo,
        `cue ${cues.length + 1} has ${text.length} characters; a line may have at most ${MAX_CUE_CHARS}`,
      );
    }
    cues.push({ index: cues.length + 1, startMs, endMs, text, line: lineNo });
  }
  if (cues.length === 0) throw new SubtitleParseError(1, 'no cues found');
  return cues;
}

/** Checks order and overlap; `durationMs` bounds the last cue. Returns the first problem or null. */
export function checkCueTimes(cues: Cue[], durationMs: number): SubtitleParseError | null {
  for (let k = 0; k < cues.length; k++) {
    const c = cues[k];
    if (c.endMs <= c.startMs) return new SubtitleParseError(c.line, `cue ${c.index} ends before it starts`);
    if (c.endMs > durationMs) {
      return new SubtitleParseError(
        c.line,
        `cue ${c.index} ends at ${formatVttTime(c.endMs)}, after the end of the video (${formatVttTime(durationMs)})`,
      );
    }
    const prev = cues[k - 1];
    if (prev && c.startMs < prev.endMs) {
      return new SubtitleParseError(c.line, `cue ${c.index} overlaps cue ${prev.index}`);
    }
  }
  return null;
}

export function formatVttTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(h)}:${p(m)}:${p(s)}.${p(rest, 3)}`;
}

/**
 * A cue's text as WebVTT cue text: `&`, `<` and `>` escaped, so markup in a subtitle file shows as
 * the characters it is (a player would otherwise read `<b>`, `<c>` or `<v>` as tags).
 */
const vttText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function toWebVtt(cues: Cue[]): string {
  const body = cues.map(
    (c) => `${c.index}\n${formatVttTime(c.startMs)} --> ${formatVttTime(c.endMs)}\n${vttText(c.text)}`,
  );
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}
