import { afterAll, beforeAll, expect, it } from 'vitest';
import { signTakeUrl, takeLinkSecret } from '../../server/takes/audio-links';
import { AI_FILM, fixtureWav, LINES, postTake, seedAiFilm } from '../server/ai-support';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { addUser } from '../server/support/seed';
import { type S3TestServer, startS3Server } from '../support/s3-server';
import { startTestServer, type TestServer } from '../support/server';

/**
 * docs/api.md, "Media": a take's audio goes to its owner (token) or through a short-lived link the server
 * signed; another learner and nobody get the same 404 as a missing file; an expired link says so.
 */
const P2 = '/producer/active_relation_two';
const WAV = fixtureWav('15a01Wa.wav');

async function learner(server: TestServer, account: string) {
  await addUser(server.app.db, account, 'learner-pass');
  const c = client(server.url);
  const { id, token } = await c.login(account, 'learner-pass');
  return { id, token, c };
}

/** One request, its body read in full (an unread media stream would hold the server's close). */
async function get(server: TestServer, url: string, token?: string) {
  const res = await fetch(`${server.url}/producer${url}`, {
    headers: token ? { token } : {},
    redirect: 'manual',
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) };
}
const plain = (url: string) => url.split('?')[0];

describeEngines('take audio access', (engine) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof learner>>;
  let other: Awaited<ReturnType<typeof learner>>;
  let audioUrl: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { TAKE_LINK_TTL_SECONDS: '600' } });
    await seedAiFilm(server.app);
    owner = await learner(server, 'owner');
    other = await learner(server, 'other');
    const res = await postTake(server.url, owner.token, { file: WAV, takeId: 'private-take' });
    expect(res.body.code).toBe(200);
    audioUrl = res.body.data.audioUrl;
  });
  afterAll(() => server?.close());

  it("the upload's answer carries a signed link that plays without a token, for its lifetime", async () => {
    const link = new URL(audioUrl, 'http://x');
    expect(link.pathname).toMatch(new RegExp(`^/media/takes/${owner.id}/.+\\.wav$`));
    const exp = Number(link.searchParams.get('exp'));
    const now = Date.now() / 1000;
    expect(exp).toBeGreaterThan(now + 590);
    expect(exp).toBeLessThanOrEqual(now + 601);
    const res = await get(server, audioUrl);
    expect(res.status).toBe(200);
    expect(res.body.equals(Buffer.from(WAV))).toBe(true);
  });

  it('nobody (no token, no signature) gets a 404, as for a missing file', async () => {
    const res = await get(server, plain(audioUrl));
    expect(res.status).toBe(404);
    expect(res.json().code).toBe(404);
    const head = await fetch(`${server.url}/producer${plain(audioUrl)}`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    await head.arrayBuffer();
  });

  it('another learner gets a 404 with their own token; the owner plays it with theirs', async () => {
    expect((await get(server, plain(audioUrl), other.token)).status).toBe(404);
    const mine = await get(server, plain(audioUrl), owner.token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
  });

  it("a shared kiosk's browser keeps no take: served no-store by token and by signed link alike", async () => {
    for (const res of [await get(server, audioUrl), await get(server, plain(audioUrl), owner.token)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    // Range requests too (the report's players seek).
    const ranged = await fetch(`${server.url}/producer${audioUrl}`, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('cache-control')).toBe('no-store');
    await ranged.arrayBuffer();
  });

  it('a tampered, moved or expired signature is refused', async () => {
    const link = new URL(audioUrl, 'http://x');
    const sig = link.searchParams.get('sig') ?? '';
    const exp = link.searchParams.get('exp') ?? '';
    const tampered = `${plain(audioUrl)}?exp=${exp}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    expect((await get(server, tampered)).status).toBe(404);
    const later = `${plain(audioUrl)}?exp=${Number(exp) + 3600}&sig=${sig}`;
    expect((await get(server, later)).status).toBe(404);
    // The same signature on another learner's path does not open it.
    const moved = `${plain(audioUrl).replace(owner.id, other.id)}?exp=${exp}&sig=${sig}`;
    expect((await get(server, moved)).status).toBe(404);
    // A link the server signed with an expiry already past (its own secret, its own signing code).
    const expired = signTakeUrl(await takeLinkSecret(server.app.db), plain(audioUrl), -10);
    const res = await get(server, expired);
    expect(res.status).toBe(403);
    expect(res.json().msg).toBe('录音链接已过期，请刷新页面');
    // The owner's token still plays it whatever the link says.
    expect((await get(server, expired, owner.token)).status).toBe(200);
  });

  it('get_run, the report and the shared H5 page hand out fresh signed links', async () => {
    const run = (await owner.c.get(`${P2}/get_run`, { filmId: AI_FILM })).body.data;
    const line = run.lines.find((l: { subtitlesId: string }) => l.subtitlesId === LINES.angry);
    expect(line.first.audioUrl).toMatch(/\?exp=\d+&sig=/);
    expect((await get(server, line.first.audioUrl)).status).toBe(200);

    const report = (await owner.c.get(`${P2}/get_info_by_id`, { filmId: AI_FILM })).body.data;
    const reported = report.dubbing.lines.find((l: { subtitlesId: string }) => l.subtitlesId === LINES.angry);
    expect(reported.first.audioUrl).toMatch(/\?exp=\d+&sig=/);
    expect((await get(server, reported.first.audioUrl)).status).toBe(200);

    const share = (await owner.c.get(`${P2}/get_report_url`, { filmId: AI_FILM })).body.data;
    const page = await (await fetch(share.url.replace(/^https?:\/\/[^/]+/, server.url))).text();
    const src = /<audio[^>]+src="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(src).toMatch(/^\/producer\/media\/takes\/.+\.wav\?exp=\d+&sig=/);
    const played = await fetch(`${server.url}${src}`);
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer()).equals(Buffer.from(WAV))).toBe(true);
  });
});

describeEngines('take audio with MEDIA_DELIVERY=presigned', (engine) => {
  let s3: S3TestServer;
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof learner>>;
  let audioUrl: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    server = await startTestServer({
      engine,
      env: { ...s3.env, S3_PREFIX: `takes-${engine}-${Date.now()}`, MEDIA_DELIVERY: 'presigned' },
    });
    await seedAiFilm(server.app);
    owner = await learner(server, 'presigned-owner');
    const res = await postTake(server.url, owner.token, { file: WAV, takeId: 'presigned-take' });
    expect(res.body.code).toBe(200);
    audioUrl = res.body.data.audioUrl;
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('a signed link redirects to the store; without one, nobody is redirected', async () => {
    const res = await get(server, audioUrl);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin).toBe(s3.endpoint);
    const bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(bytes.equals(Buffer.from(WAV))).toBe(true);
    expect((await get(server, plain(audioUrl))).status).toBe(404);
    expect((await get(server, plain(audioUrl), owner.token)).status).toBe(302);
  });
});
