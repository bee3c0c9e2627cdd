import { defineEngineJourneys } from '../journeys';

// WPE WebKit 2.38 (cog through WPEWebDriver, headless): no Wasm SIMD and no getUserMedia. Part one
// whole, and part two up to the dub page saying it cannot record here.
defineEngineJourneys('wpe', ['prpo', 'prpt-no-mic']);
