import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseExposition, sampleSum } from '@platform/metrics';
import { toUuid, toWireId } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import {
  closeWorld,
  createSessionWorld,
  docker,
  type SessionWorld,
} from '../engine/session-fixture';
import { followConnectLink, installOwnWorkspaces, viewThroughProxy } from './own-workspaces';

// The socket hop on the real Desktop workspace: with SESSION_SOCKETS_DIR set, a session on this
// machine's engine serves the proxy its page and stream on a Unix socket in its own folder;
// without it, the proxy takes the container's TLS port as before.
const LONG = 120_000;
jest.setTimeout(5 * LONG);

const TOKEN = 'metrics-token-for-the-socket-hop';
const METRIC = 'workspace_proxy_upstream_connections_total';

interface HopWorld {
  w: SessionWorld;
  base: string;
  imageId: string;
}

async function desktopWorld(env: Record<string, string>): Promise<HopWorld> {
  const w = await createSessionWorld({ METRICS_TOKEN: TOKEN, ...env });
  const { origin: base, imageIds } = await installOwnWorkspaces(w, ['Desktop']);
  const imageId = imageIds.Desktop;
  return { w, base, imageId };
}

/** A running Desktop, and the grant cookie of a browser that followed its connect link. */
async function runningDesktop({ w, base, imageId }: HopWorld) {
  const { user_id: userId } = await w.member('ada');
  const { kasm_id: kasmId, kasm_url: kasmUrl } = await w.request({
    user_id: userId,
    image_id: imageId,
  });
  await w.waitForStatus(toUuid(kasmId), 'running');
  const cookie = await followConnectLink(base, kasmUrl);
  return { kasmId, userId, cookie };
}

/** The image's own page (the platform's session page is at the root) and an RFB handshake, through the proxy. */
async function useDesktop(world: HopWorld, kasmId: string, cookie: string) {
  const page = await fetch(`${world.base}/kasm/${kasmId}/index.html`, { headers: { cookie } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('start.js');
  const viewer = await viewThroughProxy(world.base, kasmId, cookie);
  viewer.close();
  expect([viewer.width, viewer.height]).toEqual([1280, 800]);
}

async function connections(w: SessionWorld) {
  const res = await w.h.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  const samples = parseExposition(res.body);
  const count = (kind: string, hop: string) => sampleSum(samples, METRIC, { kind, hop });
  return {
    socket: { http: count('http', 'socket'), websocket: count('websocket', 'socket') },
    tls: { http: count('http', 'tls'), websocket: count('websocket', 'tls') },
  };
}

describe('with SESSION_SOCKETS_DIR set', () => {
  let root: string;
  let socketsDir: string;
  let world: HopWorld;
  beforeAll(async () => {
    // Short: a Unix socket's path holds at most 107 bytes.
    root = await mkdtemp(path.join(tmpdir(), 'hop-'));
    socketsDir = path.join(root, 'sockets');
    world = await desktopWorld({ SESSION_SOCKETS_DIR: socketsDir });
  });
  afterAll(async () => {
    await closeWorld(world?.w);
    await rm(root, { recursive: true, force: true });
  });

  it('serves the page and the stream through the session’s socket, and removes its folder with the session', async () => {
    expect((await lstat(socketsDir)).mode & 0o777).toBe(0o700);
    const { kasmId, userId, cookie } = await runningDesktop(world);
    const socketPath = path.join(socketsDir, kasmId, 'websockify.sock');
    await waitFor(async () => expect((await lstat(socketPath)).isSocket()).toBe(true), LONG);

    await useDesktop(world, kasmId, cookie);
    const counted = await connections(world.w);
    expect(counted.socket.http).toBeGreaterThanOrEqual(1);
    expect(counted.socket.websocket).toBeGreaterThanOrEqual(1);
    expect(counted.tls).toEqual({ http: 0, websocket: 0 });

    const destroyed = await world.w.h.call('destroy_kasm', { kasm_id: kasmId, user_id: userId });
    expect(destroyed.statusCode).toBe(200);
    await expect(lstat(path.join(socketsDir, kasmId))).rejects.toThrow(/ENOENT/);
  });

  it('makes a staged session’s folder too (left empty by an image that makes no socket, as Kasm’s) and removes it with the session', async () => {
    const { w } = world;
    const imageId = await w.addImage({ persistentProfilePath: '' });
    const config = await w.h.call('create_staging_config', {
      target_staging_config: {
        zone_id: w.zoneId,
        image_id: imageId,
        num_sessions: 1,
        expiration: 1,
      },
    });
    expect(config.statusCode).toBe(200);
    const staged = await waitFor(async () => {
      await w.h.app.sessionWorker.round();
      return w.h.db.kasm.findFirstOrThrow({
        where: { imageId: toUuid(imageId), status: 'running' },
      });
    }, LONG);
    const folder = path.join(socketsDir, toWireId(staged.id));
    expect((await lstat(folder)).isDirectory()).toBe(true);
    expect(await readdir(folder)).toEqual([]);

    const { staging_config_id } = config.json().staging_config;
    await w.h.call('delete_staging_config', { target_staging_config: { staging_config_id } });
    await waitFor(async () => {
      await w.h.app.sessionWorker.round();
      await expect(lstat(folder)).rejects.toThrow(/ENOENT/);
    }, LONG);
  });

  it('removes the folder of a launch that failed', async () => {
    const { w } = world;
    const imageId = await w.addImage({ execConfig: { go: { cmd: 'exit 7' } } });
    const { user_id } = await w.member('grace');
    const { kasm_id } = await w.request({ user_id, image_id: imageId });
    await w.waitForStatus(toUuid(kasm_id), 'error');
    await expect(lstat(path.join(socketsDir, kasm_id))).rejects.toThrow(/ENOENT/);
  });
});

describe('without SESSION_SOCKETS_DIR', () => {
  let world: HopWorld;
  beforeAll(async () => {
    world = await desktopWorld({});
  });
  afterAll(() => closeWorld(world?.w));

  it('mounts no folder and reaches the session over its TLS port, as before', async () => {
    const { kasmId, cookie } = await runningDesktop(world);
    const [container] = await world.w.containersOf(kasmId);
    const inspected = await docker.getContainer(container.Id).inspect();
    expect(inspected.Mounts.map((m) => m.Destination)).not.toContain('/run/workspace-platform');

    await useDesktop(world, kasmId, cookie);
    const counted = await connections(world.w);
    expect(counted.tls.http).toBeGreaterThanOrEqual(1);
    expect(counted.tls.websocket).toBeGreaterThanOrEqual(1);
    expect(counted.socket).toEqual({ http: 0, websocket: 0 });
  });
});
