/** Parses JSON text stored in a column; a corrupt value becomes the fallback instead of a 500. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
