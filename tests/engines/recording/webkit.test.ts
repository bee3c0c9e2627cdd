import { defineEngineJourneys } from '../journeys';

// Part two, a scene recorded from a wav microphone, in WebKitGTK: fails today (README, "Tests").
defineEngineJourneys('webkit', ['prpt']);
