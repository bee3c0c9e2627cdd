/**
 * What the benches that call the API share about their requests: reading an envelope's data (all of
 * them), and the client addresses bench/api.ts and bench/scale.ts send in X-Forwarded-For.
 */

/** The `data` of a `{code, msg, data}` answer; throws with the call and its message when code is not 200. */
export async function envelopeData<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${res.url} answered ${body.code} ${body.msg}`);
  return body.data;
}

/**
 * Client addresses 10.<block>.x.y, 4096 of them round robin: the per-IP limits stay real and are
 * not hit (the server under bench trusts the proxy header from loopback).
 */
export function clientAddresses(block: number): () => string {
  let counter = 0;
  return () => {
    const n = counter++ & 4095;
    return `10.${block}.${n >> 8}.${n & 255}`;
  };
}
