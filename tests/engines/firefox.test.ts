import { defineEngineJourneys } from './journeys';

// The learner journeys in Firefox ESR (WebDriver BiDi through puppeteer-core): tests/engines/journeys.ts.
defineEngineJourneys('firefox');
