import { defineEngineJourneys } from './journeys';

// Both parts in Firefox ESR (WebDriver BiDi through puppeteer-core): tests/engines/journeys.ts.
defineEngineJourneys('firefox', ['prpo', 'prpt', 'sessions', 'expiry-take']);
