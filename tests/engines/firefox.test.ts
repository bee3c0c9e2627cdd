import { defineEngineJourneys } from './journeys';

// Part one in Firefox ESR (WebDriver BiDi through puppeteer-core): tests/engines/journeys.ts. Part two
// (recording) is tests/engines/recording/firefox.test.ts, which does not pass yet (README, "Tests").
defineEngineJourneys('firefox', ['prpo']);
