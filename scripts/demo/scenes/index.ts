/**
 * Every demo film, in the order the builder writes them: the German films from EmoDB (SCENES), then
 * the English and Mandarin ones from read speech (NARRATION_SCENES). Listed explicitly so builds repeat.
 */
import { grandmasFlat } from './grandmas-flat';
import { johnDashwood } from './john-dashwood';
import { propertyWeek } from './property-week';
import { ragOnTheFridge } from './rag-on-the-fridge';
import type { NarrationScene, SceneDefinition } from './scene-types';
import { theRehearsal } from './the-rehearsal';
import { whereIsTheFolder } from './where-is-the-folder';

export const SCENES: readonly SceneDefinition[] = [
  ragOnTheFridge,
  grandmasFlat,
  whereIsTheFolder,
  theRehearsal,
];

/** The English and Mandarin films, from read speech with transcripts; built after the EmoDB films. */
export const NARRATION_SCENES: readonly NarrationScene[] = [johnDashwood, propertyWeek];

/** The film the test fixtures dub, and the EmoDB speaker who plays the learner (in none of the films). */
export const FIXTURE_FILM_ID = ragOnTheFridge.id;
export const LEARNER_SPEAKER = '15';
