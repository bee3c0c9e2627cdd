import { errorMessage } from '../../api/errors';
import { toast } from './toast';

/**
 * User actions (save answers, log in) show what went wrong (the catalogue message, src/api/errors.ts) and rethrow, so
 * the screen can keep its form and mark fields. 1002 is not shown here: the bus listener handles it.
 */
export async function userAction<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const reason = (e as { reason?: unknown }).reason;
    if (code !== 1002 && reason !== 'aborted') toast.error(errorMessage(e));
    throw e;
  }
}
