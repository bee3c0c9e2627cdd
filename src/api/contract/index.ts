// The one contract between the browser client and the services (STYLE habit 6).
// Request and answer shapes are zod schemas; types come from z.infer. Documented in docs/api.md.
export * from './account';
export * from './answers';
export * from './endpoints';
export * from './envelope';
export * from './films';
export * from './reports';
export * from './speech';
