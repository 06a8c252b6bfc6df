import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { toUuid } from '@platform/schemas';
import WebSocket from 'ws';
import { issueSessionCertificate } from '../../src/domain';
import { captureLogs, createHarness } from '../harness';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

// A Kasm-like workspace: HTTPS on 6901 behind Basic auth kasm_user:$VNC_PW, with the certificate
// and key it reads from ~/.vnc/self.pem, and no socket hop. The test web image serves so when
// TLS_PEM names that file.
jest.setTimeout(3 * LONG);

let w: SessionWorld;
let base: string;
let kasmId: string;
let userId: string;
const logs = captureLogs();

beforeAll(async () => {
  const h = await createHarness(
    { SESSION_URL_SCHEME: 'http', SESSION_LEASE_SECONDS: '3', LOG_LEVEL: 'warn' },
    { logStream: logs.stream },
  );
  w = await createSessionWorld({}, h);
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
  const imageId = await w.addImage({
    runConfig: { port: 6901, scheme: 'https', home: '/home/kasm-user' },
    allowPlainHttp: false,
    persistentProfilePath: '',
  });
  userId = (await w.member('pinned')).user_id;
  const requested = await w.request({
    image_id: imageId,
    user_id: userId,
    environment: { PORT: '6901', TLS_PEM: '/home/kasm-user/.vnc/self.pem' },
  });
  kasmId = requested.kasm_id;
  await w.waitForStatus(toUuid(kasmId), 'running');
});
afterAll(() => closeWorld(w));

async function signIn(): Promise<string> {
  const status = await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId });
  const link = new URL(status.json().kasm_url);
  const res = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

function openSocket(cookie: string): Promise<{ status: number; echoed?: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/kasm/${kasmId}/echo`, {
      headers: { origin: base, cookie },
    });
    socket.once('open', () => socket.send('ping'));
    socket.once('message', (data) => {
      socket.close();
      resolve({ status: 101, echoed: String(data) });
    });
    socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    socket.once('error', reject);
  });
}

describe('the TLS hop to a Kasm-like container', () => {
  it('pins the certificate the platform gave the container, and serves through it', async () => {
    const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
    expect(row.tlsIssuedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row.tlsPinSha256).toBe(row.tlsIssuedSha256);
    const cookie = await signIn();
    const headers = await fetch(`${base}/kasm/${kasmId}/headers`, { headers: { cookie } });
    expect(headers.status).toBe(200);
    const basic = `Basic ${Buffer.from(`kasm_user:${row.containerSecret}`).toString('base64')}`;
    expect(((await headers.json()) as { authorization: string }).authorization).toBe(basic);
    expect(await openSocket(cookie)).toEqual({ status: 101, echoed: 'ping' });
  });

  it('keeps the same pin when the session is stopped and resumed, and serves through it', async () => {
    const before = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
    expect((await w.h.call('stop_kasm', { kasm_id: kasmId, user_id: userId })).statusCode).toBe(
      200,
    );
    const resumed = await w.h.call('resume_kasm', { kasm_id: kasmId });
    expect(resumed.json().kasm.operational_status).toBe('running');
    const after = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
    expect(after.tlsPinSha256).toBe(before.tlsPinSha256);
    const cookie = await signIn();
    expect((await fetch(`${base}/kasm/${kasmId}/`, { headers: { cookie } })).status).toBe(200);
  });

  it('pins the certificate an image made of its own at its first answer, as Kasm’s images do', async () => {
    // Kasm's start-up script writes a new ~/.vnc/self.pem over the platform's at every start.
    const own = issueSessionCertificate('made by the image');
    const imageId = await w.addImage({
      runConfig: { port: 6901, scheme: 'https', home: '/home/kasm-user' },
      allowPlainHttp: false,
      persistentProfilePath: '',
    });
    await w.h.call('create_file_mapping', {
      target_file_mapping: {
        image_id: imageId,
        name: 'own certificate',
        destination: '/home/kasm-user/own.pem',
        content: own.pem,
      },
    });
    const ownUser = (await w.member('own-certificate')).user_id;
    const requested = await w.request({
      image_id: imageId,
      user_id: ownUser,
      environment: { PORT: '6901', TLS_PEM: '/home/kasm-user/own.pem' },
    });
    const row = await w.waitForStatus(toUuid(requested.kasm_id), 'running');
    expect(row.tlsPinSha256).toBe(own.fingerprint);
    expect(row.tlsIssuedSha256).not.toBe(own.fingerprint);
    const link = new URL(requested.kasm_url);
    const res = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await fetch(`${base}/kasm/${requested.kasm_id}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        kasmId: toUuid(requested.kasm_id),
        certificateSha256: own.fingerprint,
        msg: "session server presents its own certificate, not the platform's: pinned the one it presented first",
      }),
    );
  });

  it('refuses an impostor at the container’s address with a 502, sending it no password', async () => {
    // Another certificate at the address the proxy reaches the session at: as a container on
    // the bridge that took the session's address would present.
    const impostorPem = issueSessionCertificate('impostor').pem;
    const received: Record<string, unknown>[] = [];
    const impostor: Server = createServer({ cert: impostorPem, key: impostorPem }, (req, res) => {
      received.push(req.headers);
      res.end('impostor');
    });
    impostor.on('upgrade', (req, socket) => {
      received.push(req.headers);
      socket.destroy();
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    try {
      const cookie = await signIn();
      await w.h.db.kasm.update({
        where: { id: toUuid(kasmId) },
        data: { hostPort: (impostor.address() as AddressInfo).port },
      });
      // The proxy reads a session's address at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const page = await fetch(`${base}/kasm/${kasmId}/headers`, { headers: { cookie } });
      expect(page.status).toBe(502);
      expect(((await page.json()) as { code: string }).code).toBe('SESSION_CERTIFICATE_MISMATCH');
      expect((await openSocket(cookie)).status).toBe(502);
      expect(received).toEqual([]);
      const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
      const refusals = logs
        .lines()
        .filter((line) => String(line.msg).startsWith('session proxy refused a container'));
      expect(refusals.length).toBeGreaterThanOrEqual(2); // the page and the WebSocket
      expect(refusals[0].reason).toMatch(
        new RegExp(
          `presented certificate sha256:[0-9a-f]{64}, not the session's sha256:${row.tlsPinSha256}`,
        ),
      );
      // The session's key is in its container only: never in the log.
      expect(logs.text()).not.toContain('PRIVATE KEY');
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  });
});
