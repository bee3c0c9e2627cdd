import { defineEngineJourneys } from './journeys';

// The learner journeys in WebKitGTK (MiniBrowser through WebKitWebDriver): tests/engines/journeys.ts.
defineEngineJourneys('webkit');
