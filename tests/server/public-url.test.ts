import type os from 'node:os';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lanAddress, linkNotice, publicBase } from '../../server/lib/public-url';
import { startTestServer, type TestServer } from '../support/server';
import { client } from './support/http';

// With PUBLIC_URL unset, a kiosk that opened the app as 127.0.0.1 handed phones a
// QR code to 127.0.0.1 (the phone itself). Links for other devices use this machine's LAN address.
type Interfaces = ReturnType<typeof os.networkInterfaces>;
const nic = (address: string, internal = false) =>
  ({
    address,
    family: 'IPv4',
    internal,
    netmask: '255.255.255.0',
    mac: '00:00:00:00:00:00',
    cidr: null,
  }) as const;
const MACHINE: Interfaces = {
  lo: [nic('127.0.0.1', true)],
  docker0: [nic('169.254.3.4')],
  eth1: [nic('203.0.113.9')],
  wlan0: [nic('192.168.1.23')],
};

const request = (host: string, config: { publicUrl?: string; host: string }) =>
  ({ host, protocol: 'http', server: { config } }) as unknown as FastifyRequest;

describe('links for other devices', () => {
  it('the LAN address: a private-range IPv4 first, never loopback or link-local; none when there is none', () => {
    expect(lanAddress(MACHINE)).toBe('192.168.1.23');
    expect(lanAddress({ lo: [nic('127.0.0.1', true)], eth0: [nic('203.0.113.9')] })).toBe('203.0.113.9');
    expect(lanAddress({ lo: [nic('127.0.0.1', true)], x: [nic('169.254.1.1')] })).toBeNull();
  });

  it('a kiosk on 127.0.0.1 or localhost hands out the LAN address with the same port', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000'])
      expect(publicBase(request(host, { host: '0.0.0.0' }), MACHINE)).toBe('http://192.168.1.23:3000');
  });

  it('a kiosk that opened the LAN or a public name keeps it; PUBLIC_URL wins over everything', () => {
    expect(publicBase(request('films.example.org', { host: '0.0.0.0' }), MACHINE)).toBe(
      'http://films.example.org',
    );
    expect(publicBase(request('192.168.1.23:3000', { host: '0.0.0.0' }), MACHINE)).toBe(
      'http://192.168.1.23:3000',
    );
    expect(
      publicBase(
        request('127.0.0.1:3000', { host: '0.0.0.0', publicUrl: 'https://learn.example.com' }),
        MACHINE,
      ),
    ).toBe('https://learn.example.com');
  });

  it('a server listening on loopback only keeps loopback (the LAN address would not answer), and says so at start', () => {
    expect(publicBase(request('127.0.0.1:3000', { host: '127.0.0.1' }), MACHINE)).toBe(
      'http://127.0.0.1:3000',
    );
    expect(linkNotice({ host: '127.0.0.1' }, 3000, MACHINE)).toMatch(/phone cannot open: set PUBLIC_URL=/);
    expect(linkNotice({ host: '0.0.0.0' }, 3000, MACHINE)).toContain('http://192.168.1.23:3000/');
    expect(linkNotice({ host: '0.0.0.0', publicUrl: 'https://learn.example.com' }, 3000, MACHINE)).toContain(
      'https://learn.example.com (PUBLIC_URL)',
    );
  });
});

describe('the QR code of a kiosk that opened the server as 127.0.0.1', () => {
  let server: TestServer;
  beforeAll(async () => {
    // HOST as `npm start` has it (every interface); the test server itself still listens on loopback
    // and nothing here connects to the LAN address: the link is only read.
    server = await startTestServer({ env: { HOST: '0.0.0.0' } });
  });
  afterAll(() => server?.close());

  it("points at this machine's LAN address, not at the phone's own loopback", async () => {
    const res = await client(server.url).get('/producer/site_products/qr_url');
    const link = new URL(res.body.data.url);
    const lan = lanAddress();
    if (lan) expect(link.host).toBe(`${lan}:${new URL(server.url).port}`);
    else expect(link.hostname).toBe('127.0.0.1'); // a machine without a LAN: the start-up line says so
    expect(link.pathname).toBe('/producer/h5/qr');
  });
});
