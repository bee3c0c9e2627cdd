import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { LANGS, loadMessages, MESSAGE_TIERS } from '../../src/app/i18n';

// findBy*/waitFor end at the event they wait for; this is only their ceiling. Testing Library's
// default (1 s) is shorter than one fixture-server round trip plus vitest's first transform of a
// lazily imported module when the machine runs several test processes at once.
configure({ asyncUtilTimeout: 5000 });

// Component tests render screens without the router, which loads a screen's message tier beside its
// chunk: the whole catalogue is here instead. The tiers themselves are tested in app/i18n.test.ts and
// architecture/first-path-messages.test.ts.
await Promise.all(LANGS.flatMap((l) => MESSAGE_TIERS.map((tier) => loadMessages(tier, l))));

afterEach(() => {
  cleanup();
  // The page goes away: stores that write sessionStorage later (sub-titles-scores.ts) write now, so
  // nothing a test left pending lands in the next test's storage.
  window.dispatchEvent(new Event('pagehide'));
  sessionStorage.clear();
  localStorage.clear();
});
