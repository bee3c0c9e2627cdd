import { render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { readToken } from '../../../src/api/token';
import { authQRCode, resetAccount, USER_INFO_KEY } from '../../../src/app/stores/account';
import { createQrLogin, uuidFromLink } from '../../../src/app/stores/qr-login';
import { useQrLogin } from '../../../src/app/stores/use-qr-login';
import { type FixtureServer, json, movePageTo, type Seen, startFixtureServer } from '../api/fixture-server';

const user = { id: 'u1', account: 'learner', nickname: '小明', token: 'tok-qr', expiresIn: 604800 };

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  movePageTo(server.origin);
});
afterEach(() => {
  resetAccount();
  server.reset();
});
afterAll(() => server.close());

/** A QR login server: hands out uuids in turn and answers status polls from a script, one at a time. */
function scriptServer(statuses: Record<string, Array<Record<string, unknown>>>) {
  let issued = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const uuids = Object.keys(statuses);
  server.handle((req: Seen, res) => {
    if (req.url.pathname.endsWith('/qr_url')) {
      const uuid = uuids[Math.min(issued++, uuids.length - 1)];
      json(res, {
        code: 200,
        msg: 'ok',
        data: { url: `https://h5.example/producer/h5/qr?uuid=${uuid}&x=1`, expiresIn: 120 },
      });
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const script = statuses[req.url.searchParams.get('uuid') ?? ''] ?? [];
    const next = script.length > 1 ? script.shift() : script[0];
    // Answer a little later, as a long poll would, so overlapping polls would be visible.
    setTimeout(() => {
      inFlight--;
      json(res, { code: 200, msg: 'ok', data: next ?? { status: false, state: 'waiting' } });
    }, 15);
  });
  return { maxInFlight: () => maxInFlight };
}

const polls = () => server.seen.filter((s) => s.url.pathname.endsWith('/get_wx_login_status'));

test('uuid comes from the link query string', () => {
  expect(uuidFromLink('https://h5.example/qr?x=1&uuid=abc-123#frag')).toBe('abc-123');
  expect(() => uuidFromLink('https://h5.example/qr')).toThrow(/no uuid/);
});

test('QR login: image from the link, long-polls one at a time, succeeds on truthy status + token', async () => {
  const script = scriptServer({
    'uuid-aaaaaaaaaaaaaaaa': [
      { status: false, state: 'waiting' },
      { status: false, state: 'scanned' },
      { status: true, state: 'confirmed', token: 'tok-qr', userInfo: user },
    ],
  });
  const onSuccess = vi.fn();
  const qr = createQrLogin({ onSuccess });
  const phases: string[] = [];
  const stopWatching = qr.state.subscribe((s) => phases.push(s.phase));
  await qr.start();
  stopWatching();

  expect(qr.state.value.qrcode).toMatch(/^data:image\/png;base64,/);
  expect(qr.state.value.uuid).toBe('uuid-aaaaaaaaaaaaaaaa');
  expect(phases).toEqual(expect.arrayContaining(['loading', 'waiting', 'scanned', 'success']));
  expect(polls()).toHaveLength(3);
  for (const p of polls()) {
    expect(p.url.searchParams.get('uuid')).toBe('uuid-aaaaaaaaaaaaaaaa');
    expect(p.url.searchParams.get('wait')).toBe('20000');
  }
  expect(script.maxInFlight()).toBe(1);
  expect(qr.maxConcurrentPolls).toBe(1);
  expect(readToken()).toBe('tok-qr');
  expect(JSON.parse(localStorage.getItem(USER_INFO_KEY) ?? 'null')).toEqual(user);
  expect(onSuccess).toHaveBeenCalledWith(user);
});

test('a truthy status without a token is not a login', async () => {
  scriptServer({
    'uuid-bbbbbbbbbbbbbbbb': [
      { status: true, state: 'confirmed' },
      { status: true, state: 'confirmed', token: 'tok-2', userInfo: { ...user, token: 'tok-2' } },
    ],
  });
  const qr = createQrLogin();
  await qr.start();
  expect(polls()).toHaveLength(2);
  expect(readToken()).toBe('tok-2');
});

test('an expired code is shown as expired and replaced by a fresh one automatically', async () => {
  scriptServer({
    'uuid-cccccccccccccccc': [{ status: false, state: 'expired' }],
    'uuid-dddddddddddddddd': [{ status: true, state: 'confirmed', token: 'tok-3', userInfo: user }],
  });
  const qr = createQrLogin({ refreshDelayMs: 10 });
  const phases: string[] = [];
  const stop = qr.state.subscribe((s) => phases.push(s.phase));
  await qr.start();
  stop();
  expect(phases).toContain('expired');
  expect(server.seen.filter((s) => s.url.pathname.endsWith('/qr_url'))).toHaveLength(2);
  expect(polls().map((p) => p.url.searchParams.get('uuid'))).toEqual([
    'uuid-cccccccccccccccc',
    'uuid-dddddddddddddddd',
  ]);
  expect(readToken()).toBe('tok-3');
});

function QrProbe() {
  const qr = useQrLogin(() => {});
  return <p data-testid="phase">{qr.phase}</p>;
}

test('the hook starts polling when mounted and stops when unmounted', async () => {
  scriptServer({ 'uuid-eeeeeeeeeeeeeeee': [{ status: false, state: 'waiting' }] });
  const view = render(<QrProbe />);
  await vi.waitFor(() => expect(polls().length).toBeGreaterThanOrEqual(2));
  expect(screen.getByTestId('phase')).toHaveTextContent('waiting');
  expect(authQRCode.value?.uuid).toBe('uuid-eeeeeeeeeeeeeeee');
  view.unmount();
  const count = polls().length;
  await new Promise((r) => setTimeout(r, 100));
  expect(polls().length).toBeLessThanOrEqual(count + 1); // at most the poll already on the wire
  const settled = polls().length;
  await new Promise((r) => setTimeout(r, 100));
  expect(polls().length).toBe(settled);
});
