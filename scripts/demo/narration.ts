/**
 * Checks a narration scene (scenes/scene-types.ts) against the line-check transcripts before any
 * encoding: every line's voice is its role's, in the film's language, and its subtitle says the
 * words the recording says.
 */
import type { Transcript } from './line-check-dataset';
import { transcriptOf } from './line-check-dataset';
import type { NarrationScene } from './scenes/scene-types';

/**
 * The words of a line for comparing a subtitle with its transcript: lower case, hyphens and dashes
 * as spaces, punctuation dropped. Mandarin has no spaces, so a Mandarin line is one "word" of its
 * characters, which compares the characters exactly.
 */
export function spokenWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[-‐–—]/g, ' ')
    .replace(/[^\p{L}\p{N}'\s]/gu, '')
    .split(/\s+/)
    .filter(Boolean);
}

function withExtraWords(subtitle: string[], extra: string[], transcript: string[]): boolean {
  for (let at = 0; at <= subtitle.length; at++) {
    const candidate = [...subtitle.slice(0, at), ...extra, ...subtitle.slice(at)];
    if (candidate.join(' ') === transcript.join(' ')) return true;
  }
  return false;
}

export function checkNarrationScene(
  scene: NarrationScene,
  transcripts: Map<string, Transcript>,
): Transcript[] {
  const roles = new Map(scene.roles.map((r) => [r.name, r]));
  return scene.lines.map((line, i) => {
    const where = `${scene.id} line ${i + 1}`;
    const t = transcriptOf(transcripts, line.file);
    const role = roles.get(line.speaker);
    if (!role) throw new Error(`${where}: speaker "${line.speaker}" is not a role`);
    if (role.voice !== t.speaker) {
      throw new Error(`${where}: ${line.file} is speaker ${t.speaker}, role ${role.name} is ${role.voice}`);
    }
    if (t.language !== scene.language) {
      throw new Error(`${where}: ${line.file} is in "${t.language}", the film is in "${scene.language}"`);
    }
    const said = spokenWords(t.text);
    const shown = spokenWords(line.text);
    const matches = line.slip
      ? withExtraWords(shown, spokenWords(line.slip.extra), said)
      : shown.join(' ') === said.join(' ');
    if (!matches) {
      throw new Error(
        `${where}: the subtitle "${line.text}" does not say the transcript "${t.text}"${line.slip ? ` plus the slip "${line.slip.extra}"` : ''}`,
      );
    }
    return t;
  });
}
