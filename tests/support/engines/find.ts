/**
 * Element finders for ./engine.ts: each returns a JavaScript expression that evaluates, in the page,
 * to the element or to null. They find what a learner sees: a control by its accessible name (its
 * `aria-label`, else its text), a link by the text it shows.
 */
const q = (s: string) => JSON.stringify(s);

/** The first element matching a CSS selector. */
export const css = (selector: string) => `document.querySelector(${q(selector)})`;

/** An element matching `selector` whose aria-label or trimmed text is exactly `name`. */
export const named = (selector: string, name: string) =>
  `[...document.querySelectorAll(${q(selector)})].find((e) => (e.getAttribute('aria-label') ?? e.textContent.trim()) === ${q(name)} || e.textContent.trim() === ${q(name)}) ?? null`;

/** An element matching `selector` whose text contains `text`. */
export const containing = (selector: string, text: string) =>
  `[...document.querySelectorAll(${q(selector)})].find((e) => e.textContent.includes(${q(text)})) ?? null`;
