import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor end at the event they wait for; this is only their ceiling. Testing Library's
// default (1 s) is shorter than one fixture-server round trip plus vitest's first transform of a
// lazily imported module when the machine runs several test processes at once.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
