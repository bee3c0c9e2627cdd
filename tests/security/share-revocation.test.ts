import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser, importFixtureFilm, seedSharedDub } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * A learner who shared a report by mistake ends its links before their 7 days: every link given out
 * so far answers "no longer shared" (the page and its dubbed video); only the learner can do it; a
 * link asked for afterwards opens.
 */
const REVOKE = '/producer/active_relation_two/revoke_report_url';
const GET_URL = '/producer/active_relation_two/get_report_url';

describeEngines('a learner ends the share links of a report', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await importFixtureFilm(server);
    await addUser(server.app.db, 'classmate', 'classmate-pass');
  });
  afterAll(() => server?.close());

  /** A shared report of a learner of the test's own, so no test sees another's links ended. */
  const shareAs = async (account: string) => {
    const shared = await seedSharedDub(server, account, Buffer.alloc(4096, 3));
    return {
      runId: shared.runId,
      pageUrl: `${server.url}/producer/h5/report/${shared.token}`,
      dubUrl: `${server.url}${shared.dubPath}`,
    };
  };
  const as = async (account: string) => {
    const c = client(server.url);
    await c.login(account, `${account}-pass`);
    return c;
  };
  const status = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers });
    return { status: res.status, text: await res.text() };
  };

  it('nobody but the learner can end them: no token, another learner, a malformed id', async () => {
    const { runId, pageUrl } = await shareAs('sharer');
    const anonymous = await client(server.url).postJson(REVOKE, { runId });
    expect(anonymous.body.code).toBe(1002);
    const other = await (await as('classmate')).postJson(REVOKE, { runId });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe(404);
    const bad = await (await as('sharer')).postJson(REVOKE, { runId: 'x'.repeat(500) });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(400);
    expect(bad.body.msg).toMatch(/runId/);
    // The link still opens.
    expect((await status(pageUrl)).status).toBe(200);
  });

  it('after the learner ends them, the page and its video say so; a link asked for since opens', async () => {
    const { runId, pageUrl, dubUrl } = await shareAs('ender');
    expect((await status(pageUrl)).status).toBe(200);
    const me = await as('ender');
    const ended = await me.postJson(REVOKE, { runId });
    expect(ended.status).toBe(200);
    expect(ended.body.msg).toBe('已停止分享：此前给出的报告链接都已失效');
    expect(Date.parse(ended.body.data.revokedAt)).not.toBeNaN();

    const page = await status(pageUrl);
    expect(page.status).toBe(410);
    expect(page.text).toContain('分享已停止');
    expect((await status(`${pageUrl}?lang=en`)).text).toContain('No longer shared');
    // The video answers the same (410, not the 404 of a video not rendered yet).
    expect((await status(dubUrl, { range: 'bytes=0-9' })).status).toBe(410);

    const fresh = await me.get(GET_URL, { runId });
    expect(fresh.body.code).toBe(200);
    const freshPage = await status(fresh.body.data.url.replace(/^https?:\/\/[^/]+/, server.url));
    expect(freshPage.status).toBe(200);
  });
});
