/**
 * JSON in web storage that never throws: storage can be full or blocked (private mode, kiosk policy),
 * and losing a cache must not break a page. Failures are logged so they are not silent.
 */
export function readJson<T>(store: Storage, key: string): T | null {
  try {
    const raw = store.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch (e) {
    console.error(`[storage] cannot read ${key}`, e);
    return null;
  }
}

export function writeJson(store: Storage, key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
  } catch (e) {
    console.error(`[storage] cannot write ${key}`, e);
  }
}
