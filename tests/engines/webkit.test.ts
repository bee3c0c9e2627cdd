import { defineEngineJourneys } from './journeys';

// Both parts in WebKitGTK (MiniBrowser through WebKitWebDriver): tests/engines/journeys.ts. The
// upload-held variant of `expiry-take` needs request interception and runs in Chromium only.
defineEngineJourneys('webkit', ['prpo', 'prpt', 'sessions', 'expiry-take']);
