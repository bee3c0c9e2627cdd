import { saveQA_prpo, saveQA_prpt } from '../../../api/calls';
import type { Part, SaveQuestionRecordData, SaveQuestionRecordRequest } from '../../../api/contract';
import { userAction } from '../../stores/user-action';

const SAVE: Record<Part, (req: SaveQuestionRecordRequest) => Promise<SaveQuestionRecordData>> = {
  prpo: saveQA_prpo,
  prpt: saveQA_prpt,
};

/**
 * Saves a part's answers as a user action: failures are shown, then rethrown. Saved answers may start
 * a new run (docs/api.md, "Runs"), and a new run starts clean: the film's takes kept on this device
 * belong to the old one.
 */
export function saveAnswers(part: Part, req: SaveQuestionRecordRequest): Promise<SaveQuestionRecordData> {
  return userAction(async () => {
    // The takes' scores are not on the first screen, so they load here; before the save, so a
    // failed load stops it rather than leaving a saved run whose old takes are still shown.
    const scores = part === 'prpt' ? await import('../../stores/takes/sub-titles-scores') : null;
    const saved = await SAVE[part](req);
    scores?.adoptRunScores(saved.filmId, saved.runId ?? null, []);
    return saved;
  });
}
