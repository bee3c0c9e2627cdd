/** Where upload-store.ts (idb-keyval) keeps pending uploads; a test checks the two agree. */
export const UPLOADS_DB = 'dub-uploads';
export const UPLOADS_STORE = 'pending';

/**
 * How many uploads wait in IndexedDB, without idb-keyval and without creating the database when it
 * does not exist yet (a new database would lack the object store idb-keyval creates on upgrade).
 * Loaded at every app start (start.ts), so it uses the raw API. Counts every learner's takes: reading
 * each take's owner would mean reading its wav.
 */
export function countPendingUploads(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<number> {
  if (!factory) return Promise.resolve(0); // no IndexedDB: the queue could not have stored anything
  return new Promise((resolve, reject) => {
    const request = factory.open(UPLOADS_DB);
    let created = false;
    request.onupgradeneeded = (e) => {
      // Only a database that does not exist yet is upgraded here: nothing is pending. Abort so it is
      // not created (an aborted first upgrade deletes the new database).
      if (e.oldVersion === 0) created = true;
      request.transaction?.abort();
    };
    request.onerror = (e) => {
      e.preventDefault();
      if (created) resolve(0);
      else reject(request.error ?? new Error(`cannot open IndexedDB ${UPLOADS_DB}`));
    };
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(UPLOADS_STORE)) {
        db.close();
        resolve(0);
        return;
      }
      try {
        const count = db.transaction(UPLOADS_STORE, 'readonly').objectStore(UPLOADS_STORE).count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => {
          db.close();
          reject(count.error ?? new Error(`cannot count ${UPLOADS_DB}/${UPLOADS_STORE}`));
        };
      } catch (err) {
        db.close();
        reject(err);
      }
    };
  });
}
