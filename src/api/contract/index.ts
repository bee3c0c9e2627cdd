// The one contract between the browser client and the services.
// Request and answer shapes are zod schemas; types come from z.infer. Documented in docs/api.md.
export * from './account';
export * from './answers';
export * from './call-schemas';
export * from './display';
export * from './constants';
export * from './endpoints';
export * from './envelope';
export * from './films';
export * from './reports';
export * from './runs';
export * from './parse-score';
export * from './speech';
export * from './words';
