import { defineEngineJourneys } from './journeys';

// Both parts in WebKitGTK (MiniBrowser through WebKitWebDriver): tests/engines/journeys.ts.
defineEngineJourneys('webkit', ['prpo', 'prpt', 'sessions', 'expiry-take']);
