import DataLoader from 'dataloader';

/**
 * Gathers what the requests read in one turn of the event loop ask for, and hands it to `load` at
 * once (`setImmediate`: after the turn's I/O, so every request whose bytes arrived together is in).
 * A caller waits for nothing but the end of that turn; a quiet server's batch is one call. On
 * PostgreSQL, where a round trip (and a commit's WAL flush) costs more than a film list's or a
 * save's SQL, one statement then serves many learners (docs/performance.md, "The PostgreSQL list and
 * save now"). Nothing is kept between batches. `load` answers per key, in order, a value or an Error
 * that fails that key's call only.
 */
export function turnBatcher<K, V>(
  load: (keys: readonly K[]) => Promise<(V | Error)[]>,
  maxBatchSize: number,
): DataLoader<K, V> {
  return new DataLoader(load, {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (dispatch) => setImmediate(dispatch),
  });
}
