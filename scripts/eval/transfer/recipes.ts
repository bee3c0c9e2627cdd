/** The two recipes the bench compares: the previous model's and the shipped one's. */
import { classifyEmotion, FEATURE_NAMES } from '../../../src/audio/analysis';
import { emotionMatch } from '../../../src/audio/scoring/emotion-match';
import { classifyPrevious, fitPrevious, pickPrevious, previousMatch } from '../../emotion/previous/recipe';
import { DEFAULT_RECIPE, fitRecipe, type RecipeOptions } from '../../emotion/recipe';
import type { Recipe } from './bench';

export const previousRecipe: Recipe = {
  id: 'previous',
  label: 'previous model (scripts/emotion/previous)',
  fit(train) {
    const project = pickPrevious(FEATURE_NAMES);
    const model = fitPrevious(
      train.map((t) => ({ speaker: t.speaker, emotion: t.emotion, x: project(t.variants[0]) })),
    );
    return {
      project,
      read: (x, stats) => classifyPrevious(x, stats, model),
      match: (learner, target) => previousMatch(learner, target),
    };
  },
};

export function shippedRecipe(opt: RecipeOptions = DEFAULT_RECIPE, id = 'shipped'): Recipe {
  return {
    id,
    label: 'shipped model (scripts/emotion/recipe.ts)',
    fit(train) {
      const model = fitRecipe(train, opt);
      return {
        project: (x) => x,
        read: (x, stats) => classifyEmotion(x, stats, model),
        match: (learner, target) => emotionMatch(learner, target, model).score,
      };
    },
  };
}
