import type { ServerResponse } from 'node:http';
import { render, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { readToken } from '../../../src/api/token';
import { authQRCode, resetAccount, USER_INFO_KEY } from '../../../src/app/stores/account';
import { createQrLogin, uuidFromLink } from '../../../src/app/stores/qr-login';
import { useQrLogin } from '../../../src/app/stores/use-qr-login';
import { json, type Seen, fixtureServerForFile } from '../api/fixture-server';

const user = { id: 'u1', account: 'learner', nickname: '小明', token: 'tok-qr', expiresIn: 604800 };

const server = fixtureServerForFile();
afterEach(() => {
  resetAccount();
  server.reset();
});

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
        data: {
          url: `https://h5.example/producer/h5/qr?uuid=${uuid}&x=1`,
          expiresIn: 120,
          pickupKey: `key-${uuid}`,
        },
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
    // The screen's pickup key from qr_url goes with every poll, in its header (never in the URL).
    expect(p.headers['qr-pickup-key']).toBe('key-uuid-aaaaaaaaaaaaaaaa');
    expect(p.url.search).not.toContain('key-');
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
  // Status polls are held until the test answers them, as a long poll is; `closed` counts those the
  // browser gave up on (an aborted request closes its connection).
  const held: ServerResponse[] = [];
  let closed = 0;
  server.handle((req: Seen, res) => {
    if (req.url.pathname.endsWith('/qr_url')) {
      json(res, {
        code: 200,
        msg: 'ok',
        data: {
          url: 'https://h5.example/producer/h5/qr?uuid=uuid-eeeeeeeeeeeeeeee',
          expiresIn: 120,
          pickupKey: 'key-e',
        },
      });
      return;
    }
    res.on('close', () => {
      if (!res.writableFinished) closed++;
    });
    held.push(res);
  });
  const view = render(<QrProbe />);
  await vi.waitFor(() => expect(held).toHaveLength(1));
  json(held[0], { code: 200, msg: 'ok', data: { status: false, state: 'waiting' } });
  await vi.waitFor(() => expect(held).toHaveLength(2)); // answered, so it polls again
  expect(screen.getByTestId('phase')).toHaveTextContent('waiting');
  expect(authQRCode.value?.uuid).toBe('uuid-eeeeeeeeeeeeeeee');

  view.unmount();
  // The poll on the wire is aborted, and the loop that would send the next one has ended with it.
  await vi.waitFor(() => expect(closed).toBe(1));
  expect(polls()).toHaveLength(2);
});
