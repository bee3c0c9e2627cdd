/**
 * What a scene author writes: which EmoDB take each line uses and who says it. The German text
 * and the target emotion are NOT written here; the builder takes them from labels.csv so they
 * cannot drift from the recording.
 */
import type { Localized, Part } from '../../../src/api/contract';
import type { ManifestQuestion } from '../../../server/films/manifest';

export interface SceneRole {
  name: string;
  description: Localized;
  /** EmoDB speaker id (two digits) who voices this role. */
  emodbSpeaker: string;
}

export interface SceneLine {
  /** EmoDB file name without `.wav`, e.g. `08a01Wc`. */
  take: string;
  /** Role name; must be one of the scene's roles. */
  speaker: string;
  /** Only when the scene gives the sentence a concrete meaning the plain translation lacks. */
  translation?: Localized;
}

export interface SceneDefinition {
  id: string;
  title: string;
  titleEn: string;
  synopsis: Localized;
  parts: Part[];
  roles: SceneRole[];
  lines: SceneLine[];
  questions: ManifestQuestion[];
}

/** A voice of a narration film: one speaker of the line-check set's transcripts.tsv. */
export interface NarrationRole {
  name: string;
  description: Localized;
  /** The `speaker` column of transcripts.tsv, e.g. `aishell-S0150`. */
  voice: string;
}

export interface NarrationLine {
  /** Path inside the line-check set, e.g. `zh/aishell/BAC009S0252W0148.wav`. */
  file: string;
  /** Role name; must be one of the scene's roles. */
  speaker: string;
  /**
   * The subtitle. The builder checks that its words (case, punctuation and hyphens aside) are the
   * transcript's, so the line the learner dubs is the line the voice says.
   */
  text: string;
  /**
   * Only when the reader slipped and the subtitle shows the text as written: the extra word(s) the
   * transcript holds, and why they are left out. The builder checks that the transcript is the
   * subtitle with exactly these words added once.
   */
  slip?: { extra: string; note: string };
  /** zh and en; in the film's own language a plain restatement of the line. */
  translation: Localized;
}

/**
 * A demo film built from read speech with transcripts (../shared/datasets/line-check) instead of
 * EmoDB: English or Mandarin, so the word check has something to check on a fresh install. The
 * recordings carry no emotion labels, so the lines have no target emotion.
 */
export interface NarrationScene {
  id: string;
  title: string;
  titleEn: string;
  /** BCP 47 primary tag of the spoken lines, written to film.json as `language`. */
  language: 'en' | 'zh';
  synopsis: Localized;
  parts: Part[];
  roles: NarrationRole[];
  lines: NarrationLine[];
  questions: ManifestQuestion[];
  /** The source credit drawn in the corner of the picture (ASCII: drawn with the Latin font). */
  credit: string;
}
