import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { waitFor } from '@platform/testing';
import { docker } from '../engine/session-fixture';
// The own registry's list of workspaces, the images to hold to that: the registry publishes it
// only as JSON over HTTP, and this test runs without the platform.
// eslint-disable-next-line no-restricted-imports -- see above
import { OWN_WORKSPACES } from '../../src/own-registry/own-workspaces';

// The images `npm run workspaces:build` makes (the engine setup builds them for this folder),
// held to what the platform expects of a Kasm image (spec §10), without the platform.
const LONG = 120_000;
jest.setTimeout(3 * LONG);

// The first workspace of the own registry is the Desktop.
const DESKTOP = OWN_WORKSPACES[0].image;
const password = randomBytes(12).toString('base64url');
let container: Docker.Container;
let port: number;

type Answer = { status: number; body: string };
/** A GET on the published port over TLS, or plain on a Unix socket (the socket hop's). */
function get(
  urlPath: string,
  headers: Record<string, string> = {},
  socketPath?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = (socketPath ? http : https).request(
      socketPath
        ? { socketPath, path: urlPath, headers }
        : { host: '127.0.0.1', port, path: urlPath, headers, rejectUnauthorized: false },
      (res) => {
        let body = '';
        res
          .on('data', (c) => (body += c))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // A WebSocket upgrade that is accepted answers 101 here instead of a response; its body is
    // the stream's first frame (the VNC server's greeting).
    req.on('upgrade', (res, socket, head: Buffer) => {
      const done = (first: Buffer) => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, body: first.toString('latin1') });
      };
      if (head.length > 0) done(head);
      else socket.once('data', done);
    });
    req.on('error', reject).end();
  });
}
const basic = (user: string, pass: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
});
const upgrade = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': randomBytes(16).toString('base64'),
};

async function exec(cmd: string, target = container): Promise<string> {
  const run = await target.exec({ Cmd: ['/bin/sh', '-c', cmd], AttachStdout: true });
  const stream = await run.start({ Detach: false });
  const chunks: Buffer[] = [];
  await new Promise((resolve) =>
    stream.on('data', (c: Buffer) => chunks.push(c)).on('end', resolve),
  );
  // Drop the 8-byte frame headers of the multiplexed stream.
  const all = Buffer.concat(chunks);
  const out: Buffer[] = [];
  for (let i = 0; i + 8 <= all.length; i += 8 + all.readUInt32BE(i + 4))
    out.push(all.subarray(i + 8, i + 8 + all.readUInt32BE(i + 4)));
  return Buffer.concat(out).toString();
}

const HOP_LABEL = 'io.workspace-platform.socket-hop';

// Held as the platform holds every session (docs/sessions.md): the images need no capability.
const startImage = (image: string, platformFolder?: string) =>
  docker.createContainer({
    Image: image,
    Env: [`VNC_PW=${password}`],
    HostConfig: {
      Init: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: 1024,
      PortBindings: { '6901/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
      Mounts: platformFolder
        ? [{ Type: 'bind', Source: platformFolder, Target: '/run/workspace-platform' }]
        : undefined,
    },
  });

beforeAll(async () => {
  container = await startImage(DESKTOP);
  await container.start();
  const info = await container.inspect();
  port = Number(info.NetworkSettings.Ports['6901/tcp'][0].HostPort);
  await waitFor(() => get('/'), LONG);
});
afterAll(() => container?.remove({ force: true }).catch(() => undefined));

describe('the workspace images', () => {
  it.each(OWN_WORKSPACES.map((w) => [w.image]))(
    '%s runs as uid 1000 in /home/kasm-user, serves 6901, declares the socket hop and stays under 1 GB',
    async (image) => {
      const info = await docker.getImage(image).inspect();
      expect(info.Config.User).toBe('1000');
      expect(info.Config.Labels?.[HOP_LABEL]).toContain('websockify_unix');
      expect(info.Config.Env).toContain('HOME=/home/kasm-user');
      expect(Object.keys(info.Config.ExposedPorts ?? {})).toEqual(['6901/tcp']);
      expect(info.Size).toBeLessThan(1_000_000_000);
    },
  );
});

describe('the Desktop image', () => {
  it('guards its page with Basic auth as kasm_user:$VNC_PW, over TLS', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/', basic('kasm_user', 'wrong'))).status).toBe(401);
    expect((await get('/', basic('root', password))).status).toBe(401);
    const page = await get('/', basic('kasm_user', password));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script defer src="start.js">');
    // noVNC's modules come as one bundle, not one request each.
    expect(page.body).toContain('src="novnc.js"');
    expect(page.body).not.toContain('app/ui.js');
    expect((await get('/novnc.js', basic('kasm_user', password))).status).toBe(200);
    expect((await get('/vnc.html', basic('kasm_user', password))).status).toBe(200);
  });

  it('guards its WebSocket stream the same way', async () => {
    expect((await get('/websockify', upgrade)).status).toBe(401);
    expect((await get('/websockify', { ...upgrade, ...basic('kasm_user', 'wrong') })).status).toBe(
      401,
    );
    const opened = await get('/websockify', { ...upgrade, ...basic('kasm_user', password) });
    expect(opened.status).toBe(101);
    expect(opened.body).toContain('RFB 003.008');
  });

  it('runs every process as uid 1000, and no command line shows the password', async () => {
    expect((await exec('id -u')).trim()).toBe('1000');
    const processes = await exec(
      'for p in /proc/[0-9]*; do printf "%s " "$(stat -c %u "$p")"; tr "\\0" " " < "$p/cmdline"; echo; done',
    );
    expect(processes).toMatch(/Xvnc/);
    expect(processes).toMatch(/websockify/);
    expect(processes).not.toContain(password);
    // A process that ended while listed (the listing's own) leaves its owner empty.
    const owners = processes
      .split('\n')
      .map((l) => l.split(' ')[0])
      .filter(Boolean);
    expect(new Set(owners)).toEqual(new Set(['1000']));
  });

  it('plays sound into a PulseAudio server of its user, a null sink the default, for any client', async () => {
    const info = () => exec('pactl info 2>&1');
    await waitFor(async () => expect(await info()).toMatch(/^Default Sink: desktop$/m), LONG);
    expect(await info()).toMatch(/^Default Source: desktop\.monitor$/m);
    expect(await info()).toMatch(/^User Name: kasm-user$/m);
    // A tenth of a second of the monitor, through the client configuration every program reads.
    const bytes = await exec(
      'parec --raw --format=s16le --rate=48000 --channels=2 --latency-msec=20 -d @DEFAULT_MONITOR@ | head -c 19200 | wc -c',
    );
    expect(Number(bytes)).toBe(19_200);
  });

  it('stops cleanly on SIGTERM: exit code 0, not killed after the grace period', async () => {
    await container.stop({ t: 60 });
    const info = await container.inspect();
    expect(info.State.ExitCode).toBe(0);
  });
});

describe('the Firefox image', () => {
  it('runs Firefox ESR on its display', async () => {
    const browser = await startImage(OWN_WORKSPACES[2].image);
    try {
      await browser.start();
      const running = () => exec('cat /proc/[0-9]*/comm', browser);
      await waitFor(async () => expect(await running()).toMatch(/^firefox-esr$/m), LONG);
    } finally {
      await browser.remove({ force: true });
    }
  });
});

describe('the Desktop image with the platform’s folder mounted (the socket hop)', () => {
  let folder: string;
  let withFolder: Docker.Container;
  let socketPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'socket-hop-'));
    // As the service makes it (root's, 0755) and serves it: the image's hop command, as root.
    await chmod(folder, 0o755);
    socketPath = path.join(folder, 'websockify.sock');
    withFolder = await startImage(DESKTOP, folder);
    await withFolder.start();
    const command = (await docker.getImage(DESKTOP).inspect()).Config.Labels[HOP_LABEL];
    const hop = await withFolder.exec({ Cmd: ['/bin/sh', '-c', command], User: '0' });
    (await hop.start({ Detach: true })).resume();
    await waitFor(async () => expect((await lstat(socketPath)).isSocket()).toBe(true), LONG);
  });
  afterAll(async () => {
    await withFolder?.remove({ force: true }).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  });

  it('serves its page on a Unix socket there, plain, behind the same Basic auth', async () => {
    expect((await lstat(socketPath)).mode & 0o777).toBe(0o666);
    expect((await get('/', {}, socketPath)).status).toBe(401);
    expect((await get('/', basic('kasm_user', 'wrong'), socketPath)).status).toBe(401);
    const page = await get('/', basic('kasm_user', password), socketPath);
    expect(page.status).toBe(200);
    expect(page.body).toContain('start.js');
  });

  it('serves its WebSocket stream there behind the same auth', async () => {
    expect((await get('/websockify', upgrade, socketPath)).status).toBe(401);
    const opened = await get(
      '/websockify',
      { ...upgrade, ...basic('kasm_user', password) },
      socketPath,
    );
    expect(opened.status).toBe(101);
    expect(opened.body).toContain('RFB 003.008');
  });

  it('serves the socket from a root process that the desktop’s user can neither replace nor stop', async () => {
    const owners = await exec(
      // Not this shell, whose own command line names it.
      'for p in /proc/[0-9]*; do [ "$p" = /proc/$$ ] || ' +
        '{ grep -q websockify_unix "$p/cmdline" 2>/dev/null && stat -c %u "$p"; }; done',
      withFolder,
    );
    expect(owners.trim()).toBe('0');
    const attempt = await exec(
      'rm -f /run/workspace-platform/websockify.sock; touch /run/workspace-platform/x; ' +
        'for p in /proc/[0-9]*; do [ "$p" = /proc/$$ ] || { grep -q websockify_unix ' +
        '"$p/cmdline" 2>/dev/null && kill -9 "${p#/proc/}"; }; done; ls /run/workspace-platform',
      withFolder,
    );
    expect(attempt).toMatch(/^websockify\.sock\n$/m);
    expect((await get('/', basic('kasm_user', password), socketPath)).status).toBe(200);
  });

  it('shows no password on a command line, and stops cleanly', async () => {
    const processes = await exec('cat /proc/[0-9]*/cmdline | tr "\\0" " "', withFolder);
    expect(processes).toContain('websockify_unix');
    expect(processes).not.toContain(password);
    await withFolder.stop({ t: 60 });
    expect((await withFolder.inspect()).State.ExitCode).toBe(0);
  });
});
