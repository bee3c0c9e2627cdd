/** Every demo film, in the order the builder writes them. Listed explicitly so builds are repeatable. */
import { grandmasFlat } from './grandmas-flat';
import { ragOnTheFridge } from './rag-on-the-fridge';
import type { SceneDefinition } from './scene-types';
import { theRehearsal } from './the-rehearsal';
import { whereIsTheFolder } from './where-is-the-folder';

export const SCENES: readonly SceneDefinition[] = [
  ragOnTheFridge,
  grandmasFlat,
  whereIsTheFolder,
  theRehearsal,
];

/** The film the test fixtures dub, and the EmoDB speaker who plays the learner (in none of the films). */
export const FIXTURE_FILM_ID = ragOnTheFridge.id;
export const LEARNER_SPEAKER = '15';
