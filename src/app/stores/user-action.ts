import { errorText } from '../i18n/error-text';
import { toast } from './toast';

/**
 * User actions (save answers, log in) show what went wrong (the error catalogue's row, in the
 * learner's language) and rethrow, so the screen can keep its form and mark fields. 1002 is not
 * shown here: the bus listener handles it. `inline`: the caller shows the error itself (a form), so
 * it is not shown twice.
 */
export async function userAction<R>(run: () => Promise<R>, opts: { inline?: boolean } = {}): Promise<R> {
  try {
    return await run();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const reason = (e as { reason?: unknown }).reason;
    if (code !== 1002 && reason !== 'aborted' && !opts.inline) toast.error(errorText(e));
    throw e;
  }
}
