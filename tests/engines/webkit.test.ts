import { defineEngineJourneys } from './journeys';

// Part one in WebKitGTK (MiniBrowser through WebKitWebDriver): tests/engines/journeys.ts. Part two
// (recording) is tests/engines/recording/webkit.test.ts, which does not pass yet (README, "Tests").
defineEngineJourneys('webkit', ['prpo']);
