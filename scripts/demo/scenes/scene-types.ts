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
