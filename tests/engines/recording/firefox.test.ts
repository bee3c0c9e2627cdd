import { defineEngineJourneys } from '../journeys';

// Part two, a scene recorded from a wav microphone, in Firefox ESR: fails today (README, "Tests").
defineEngineJourneys('firefox', ['prpt']);
