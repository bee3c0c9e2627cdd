import type { Emotion, Localized } from '../../api/contract';
import { word } from '../../i18n';
import { type Fact, fact } from '../../i18n/statements';

/** An emotion's name as a fact of the shared catalogue (src/i18n), for a statement to quote. */
export const emotionName = (e: Emotion): Fact => fact(`emotion.${e}`);

/** Every emotion's name in both languages, from the catalogue (the demo scenes and the app read it). */
export const EMOTION_LABELS = Object.fromEntries(
  (['anger', 'boredom', 'disgust', 'fear', 'happiness', 'sadness', 'neutral'] as const).map((e) => [
    e,
    { zh: word(emotionName(e), 'zh'), en: word(emotionName(e), 'en') },
  ]),
) as Record<Emotion, Localized>;

/**
 * The heard emotion as a learner may be told it: its name only when the class may be named
 * (`named`, docs/emotion.md), with how sure only when a calibrated percentage holds (`confidence`
 * present), else "no clear emotion heard". Results written before `named` pass their `clear`.
 */
export function heardFact(detected: Emotion, named: boolean | undefined, confidence?: number): Fact {
  if (!named) return fact('emotion.unclear');
  return confidence === undefined
    ? fact('take.emotion.heardName', { heard: emotionName(detected) })
    : fact('take.emotion.heard', { heard: emotionName(detected), confidence });
}

/**
 * Whether a take's target class may be named to the learner: a line's annotated emotion, yes; the
 * actor's top class, never. That class is the model's reading of a voice it never heard, most often
 * in a language it never heard, and out of domain it is wrong too often to be called the line's
 * emotion (docs/emotion.md, "When a category is named"). The score still asks for it; only its
 * name is not said.
 */
export const targetNamed = (e: { targetSource: 'annotated' | 'actor' | 'none' }): boolean =>
  e.targetSource === 'annotated';

/** Arousal gaps (on the −1…1 scale) smaller than this count as "about the same energy". */
export const AROUSAL_TOLERANCE = 0.25;
