import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INPUT_BOUNDS } from '../../server/lib/validate';
import { describeEngines } from '../server/support/engines';
import type { AnyEnvelope } from '../server/support/http';
import { startTestServer, type TestServer } from '../support/server';

/**
 * One anonymous request must not freeze the server: a deeply nested JSON body (the NUL walk once
 * copied its path at every level, so its cost grew with the square of the depth) is refused with a
 * 4xx by a linear check, on routes and on URLs that match none, while other requests keep their
 * latency. The server runs in this process, so the event loop measured here is the server's.
 */
const SAVE = '/producer/active_relation_two/save_question_record';
const LOGIN = '/producer/site_products/login_pwd';
const HEALTH = '/producer/health';

const nested = (bytes: number) => {
  const depth = Math.floor(bytes / 2);
  return '['.repeat(depth) + ']'.repeat(depth);
};

async function post(url: string, body: string): Promise<{ status: number; body: AnyEnvelope }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as AnyEnvelope };
}

describeEngines('a nested JSON body cannot stall the server', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // Only the request under test may be refused: the per-IP request limit is lifted.
    server = await startTestServer({ engine, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(() => server?.close());

  it('refuses hostile bodies with 4xx while the event loop and other requests stay responsive', async () => {
    const hostile: Array<[url: string, body: string, status: number]> = [
      // Over every body limit: 413 before anything is parsed, on a route and on an unknown URL.
      [`${server.url}/producer/x`, nested(1024 * 1024), 413],
      [server.url + SAVE, nested(1024 * 1024), 413],
      // Within the limits: an unknown URL is not parsed at all, a route refuses the depth (400),
      // before authentication (these requests carry no token).
      [`${server.url}/producer/x`, nested(15 * 1024), 404],
      [server.url + LOGIN, nested(4000), 400],
      [server.url + SAVE, nested(120 * 1024), 400],
      // Deep inside a string is not depth: the route's own validation answers.
      [server.url + LOGIN, JSON.stringify({ account: '['.repeat(3000), password: 'x' }), 400],
    ];
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let pinging = true;
    const pings: number[] = [];
    const pinger = (async () => {
      while (pinging) {
        const t0 = performance.now();
        const res = await fetch(server.url + HEALTH);
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        pings.push(performance.now() - t0);
      }
    })();
    const answers = [];
    for (let round = 0; round < 3; round++) {
      answers.push(...(await Promise.all(hostile.map(([url, body]) => post(url, body)))));
    }
    pinging = false;
    await pinger;
    delay.disable();

    answers.forEach((a, i) => {
      const [url, , status] = hostile[i % hostile.length];
      expect(a.status, url).toBe(status);
      expect(a.body.code, url).toBe(status);
      expect(a.body.msg).toMatch(/^[^(]*[\u4e00-\u9fff]/);
    });
    const depthRefusal = answers[hostile.length - 2];
    expect(depthRefusal.body.msg).toContain(`嵌套层数过多（上限 ${INPUT_BOUNDS.depth} 层）`);
    // Generous bounds: the quadratic walk blocked the loop for seconds at 80 KB and minutes at 1 MB.
    expect(pings.length).toBeGreaterThan(0);
    expect(Math.max(...pings)).toBeLessThan(2000);
    expect(delay.max / 1e6).toBeLessThan(1000);
  });

  it('a wide body is bounded too: more values than INPUT_BOUNDS.nodes answer 400', async () => {
    const wide = JSON.stringify({
      filmId: 1,
      answers: Array.from({ length: INPUT_BOUNDS.nodes + 1 }, () => 0),
    });
    const res = await post(server.url + SAVE, wide);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(`包含的项目过多（上限 ${INPUT_BOUNDS.nodes} 项）`);
  });
});
