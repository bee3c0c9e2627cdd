import { afterAll, beforeAll, expect, it } from 'vitest';
import { QR_PICKUP_HEADER, qrUrlData, wxLoginStatusData } from '../../src/api/contract';
import { describeEngines } from '../server/support/engines';
import { client } from '../server/support/http';
import { dropRedisPrefix, newRedisPrefix, SKIP_REDIS, testRedisUrl } from '../server/support/redis';
import { startTestServer, type TestServer } from '../support/server';

/**
 * docs/security.md: whoever sees the QR code knows its uuid. Only the screen that asked for the code (it
 * holds qr_url's pickup key) may receive the token; a poll with the uuid alone, or with a wrong key,
 * must neither get the token nor use it up, however it races the real kiosk.
 */
const QR_URL = '/producer/site_products/qr_url';
const STATUS = '/producer/site_products/get_wx_login_status';

function takeoverSuite(engine: 'sqlite' | 'postgres', path: 'local' | 'redis') {
  let server: TestServer;
  const prefix = newRedisPrefix();
  beforeAll(async () => {
    const env: Record<string, string> =
      path === 'redis' ? { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix } : {};
    server = await startTestServer({ engine, seedDemo: true, env });
  });
  afterAll(async () => {
    await server?.close();
    if (path === 'redis') await dropRedisPrefix(prefix);
  });

  const newRequest = async () => {
    const data = qrUrlData.parse((await client(server.url).get(QR_URL)).body.data);
    return { uuid: new URL(data.url).searchParams.get('uuid') ?? '', key: data.pickupKey };
  };
  const poll = async (uuid: string, wait: number, key?: string) => {
    const res = await client(server.url).get(
      STATUS,
      { uuid, wait: String(wait) },
      key === undefined ? {} : { [QR_PICKUP_HEADER]: key },
    );
    expect(res.status).toBe(200);
    return wxLoginStatusData.parse(res.body.data);
  };
  const scan = (uuid: string) => fetch(`${server.url}/producer/h5/qr?uuid=${uuid}`);
  const confirm = async (uuid: string) => {
    const res = await client(server.url).postJson('/producer/h5/qr/confirm', {
      uuid,
      account: 'demo',
      password: 'demo123456',
    });
    expect(res.body.code).toBe(200);
  };

  it('long polls with the uuid alone or a wrong key race the kiosk: only the kiosk gets the token', async () => {
    const { uuid, key } = await newRequest();
    await scan(uuid);
    // Every poll is held until the phone confirms, then all wake on the same change notice.
    const kiosk = poll(uuid, 20_000, key);
    const attackers = [
      ...Array.from({ length: 4 }, () => poll(uuid, 20_000)),
      ...Array.from({ length: 3 }, (_, k) => poll(uuid, 20_000, `${key.slice(0, -2)}x${k}`)),
      poll(uuid, 20_000, ''),
    ];
    // Whether a poll is already held when the phone confirms or arrives just after, it races the
    // kiosk's for the one delivery.
    await confirm(uuid);
    const stolen = await Promise.all(attackers);
    for (const answer of stolen) {
      expect(answer.status).toBe(false);
      expect(answer.token).toBeUndefined();
      expect(answer.userInfo).toBeUndefined();
    }
    const mine = await kiosk;
    expect(mine).toMatchObject({ status: true, state: 'confirmed' });
    expect(mine.token).toBeTruthy();
    // Later polls without the key still see no token; the kiosk's own second poll finds it delivered.
    expect(await poll(uuid, 0)).toEqual({ status: false, state: 'confirmed' });
    expect(await poll(uuid, 0, key)).toEqual({ status: false, state: 'confirmed' });
  });

  it('an attacker polling first, in a tight loop, neither gets nor uses up the token', async () => {
    const { uuid, key } = await newRequest();
    await confirm(uuid);
    // The confirmed request is now waiting for its pickup: hammer it without the key first.
    const attempts = await Promise.all(Array.from({ length: 20 }, () => poll(uuid, 0)));
    expect(attempts.every((a) => a.status === false && a.token === undefined)).toBe(true);
    const rows = await server.app.db
      .selectFrom('qr_logins')
      .select('delivered_at')
      .where('uuid', '=', uuid)
      .execute();
    expect(rows[0].delivered_at).toBeNull();
    // The real kiosk still signs in, and its token works.
    const mine = await poll(uuid, 0, key);
    expect(mine.status).toBe(true);
    const films = await client(server.url).get('/producer/active_relation_two/show_film_picture', undefined, {
      token: mine.token ?? '',
    });
    expect(films.body.code).toBe(200);
  });

  it("one request's key does not pick up another request", async () => {
    const mine = await newRequest();
    const other = await newRequest();
    await confirm(mine.uuid);
    expect((await poll(mine.uuid, 0, other.key)).token).toBeUndefined();
    expect((await poll(mine.uuid, 0, mine.key)).status).toBe(true);
  });
}

describeEngines('QR login takeover', (engine) => takeoverSuite(engine, 'local'));

describeEngines('QR login takeover over Redis pub/sub', (engine) => {
  if (SKIP_REDIS) return it.skip('needs Redis');
  takeoverSuite(engine, 'redis');
});
