import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { parseExposition, sampleSum } from '@platform/metrics';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { socketPathIn } from '../../src/domain';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { installOwnWorkspaces } from './own-workspaces';

// Driving the real Desktop workspace by program (send_kasm_input, get_kasm_frame), both ways the
// service reaches a session: the socket hop, and the Kasm-like way (HTTPS on 6901 behind Basic
// auth, the pinned certificate, no hop) that Kasm's own images offer. Nothing runs in the image
// for it: the service speaks VNC on the session's stream itself.
const LONG = 120_000;
jest.setTimeout(6 * LONG);

const TOKEN = 'metrics-token-for-driving-a-desktop-by-program';
/** The terminal the desktop opens, focused (workspace-apps: 100x30+48+40, background #1d2128). */
const TERMINAL = { x: 200, y: 150, background: [0x1d, 0x21, 0x28] };
/** The root window's colour (xsetroot -solid '#2e3440'), where nothing is drawn. */
const ROOT = [0x2e, 0x34, 0x40];

interface Driven {
  w: SessionWorld;
  kasmId: string;
  userId: string;
}

async function drivenDesktop(env: Record<string, string>): Promise<Driven> {
  const w = await createSessionWorld({ METRICS_TOKEN: TOKEN, ...env });
  const { imageIds } = await installOwnWorkspaces(w, ['Desktop']);
  const { user_id: userId } = await w.member('ada');
  const { kasm_id: kasmId } = await w.request({ user_id: userId, image_id: imageIds.Desktop });
  await w.waitForStatus(toUuid(kasmId), 'running');
  return { w, kasmId, userId };
}

async function frame({ w, kasmId }: Driven, body: object = {}) {
  const res = await w.h.call('get_kasm_frame', { kasm_id: kasmId, ...body });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  return PNG.sync.read(res.rawPayload);
}

const pixel = (png: PNG, x: number, y: number) => [
  ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3),
];

/** How many pixels of a region differ between two frames. */
function changed(a: PNG, b: PNG, region: { x: number; y: number; w: number; h: number }) {
  let n = 0;
  for (let y = region.y; y < region.y + region.h; y++)
    for (let x = region.x; x < region.x + region.w; x++)
      if (pixel(a, x, y).join() !== pixel(b, x, y).join()) n++;
  return n;
}

/** How many pixels of a region are not the root window's colour. */
function drawn(png: PNG, region: { x: number; y: number; w: number; h: number }) {
  let n = 0;
  for (let y = region.y; y < region.y + region.h; y++)
    for (let x = region.x; x < region.x + region.w; x++)
      if (pixel(png, x, y).join() !== ROOT.join()) n++;
  return n;
}

async function input(
  d: Driven,
  actions: object[],
  credentials?: { api_key: string; api_key_secret: string },
) {
  return d.w.h.call('send_kasm_input', { kasm_id: d.kasmId, actions }, credentials);
}

async function driverConnections(w: SessionWorld, hop: string) {
  const res = await w.h.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  return sampleSum(parseExposition(res.body), 'workspace_proxy_upstream_connections_total', {
    kind: 'driver',
    hop,
  });
}

/** What both ways must do: type into the terminal, draw the pointer, answer the screen. */
function drivesTheDesktop(world: () => Driven, hop: 'socket' | 'tls') {
  it('answers the whole screen as a PNG, once the desktop drew its terminal', async () => {
    const png = await waitFor(
      async () => {
        const shown = await frame(world());
        expect(pixel(shown, TERMINAL.x, TERMINAL.y)).toEqual(TERMINAL.background);
        return shown;
      },
      LONG,
      250,
    );
    expect([png.width, png.height]).toEqual([1280, 800]);
  });

  it('types a command into the terminal with Return: it runs, and the frame shows the text', async () => {
    const d = world();
    const before = await frame(d);
    const sent = await input(d, [
      { type: 'click', x: TERMINAL.x, y: TERMINAL.y },
      { type: 'type', text: 'echo driven > /tmp/driven' },
      { type: 'key', keys: 'Return' },
    ]);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ width: 1280, height: 800 });
    const output = await waitFor(
      async () => {
        const res = await d.w.h.call('exec_command_kasm', {
          kasm_id: d.kasmId,
          exec_config: { cmd: 'cat /tmp/driven' },
        });
        if (res.json().exit_code !== 0) throw new Error(res.json().output);
        return res.json().output;
      },
      LONG,
      250,
    );
    expect(output).toBe('driven\n');
    // The terminal's first lines (its prompt, then the command's echo) changed.
    const terminalText = { x: 50, y: 42, w: 700, h: 60 };
    await waitFor(
      async () => {
        expect(changed(before, await frame(d), terminalText)).toBeGreaterThan(100);
      },
      LONG,
      100,
    );
    expect(await driverConnections(d.w, hop)).toBeGreaterThanOrEqual(1);
  });

  it('moves the pointer where it is sent: the server draws it there in the frame', async () => {
    const d = world();
    // Two points on the root window, right of the terminal and above the panel.
    const first = { x: 1050, y: 250 };
    const second = { x: 1150, y: 650 };
    const around = (p: { x: number; y: number }) => ({ x: p.x - 12, y: p.y - 12, w: 36, h: 40 });
    expect((await input(d, [{ type: 'move', x: first.x, y: first.y }])).statusCode).toBe(200);
    await waitFor(
      async () => {
        const shown = await frame(d);
        expect(drawn(shown, around(first))).toBeGreaterThan(10);
        expect(drawn(shown, around(second))).toBe(0);
      },
      LONG,
      100,
    );
    expect((await input(d, [{ type: 'move', x: second.x, y: second.y }])).statusCode).toBe(200);
    await waitFor(
      async () => {
        const shown = await frame(d);
        expect(drawn(shown, around(first))).toBe(0);
        expect(drawn(shown, around(second))).toBeGreaterThan(10);
      },
      LONG,
      100,
    );
  });
}

describe('on the socket hop', () => {
  let root: string;
  let d: Driven;
  beforeAll(async () => {
    // Short: a Unix socket's path holds at most 107 bytes.
    root = await mkdtemp(path.join(tmpdir(), 'drive-'));
    d = await drivenDesktop({ SESSION_SOCKETS_DIR: path.join(root, 'sockets') });
    // The hop's server may still be starting when the session is running (a loaded machine): the
    // driver would then take the TLS port, as the proxy does. These tests are about the hop.
    const socket = socketPathIn(path.join(root, 'sockets'), d.kasmId);
    await waitFor(
      () =>
        new Promise<void>((resolve, reject) =>
          connect(socket)
            .once('connect', function (this: import('node:net').Socket) {
              this.destroy();
              resolve();
            })
            .once('error', reject),
        ),
      120_000,
      250,
    );
  });
  afterAll(async () => {
    await closeWorld(d?.w);
    await rm(root, { recursive: true, force: true });
  });

  drivesTheDesktop(() => d, 'socket');

  it('needs sessions.drive to send input and sessions.screen to read the screen', async () => {
    const { h } = d.w;
    const modify = await h.issueKey(['sessions.modify', 'sessions.view']);
    const drive = await h.issueKey(['sessions.drive']);
    const screen = await h.issueKey(['sessions.screen']);
    const move = [{ type: 'move', x: 10, y: 10 }];
    const frameWith = (key: typeof drive) => h.call('get_kasm_frame', { kasm_id: d.kasmId }, key);
    expect((await input(d, move, modify)).statusCode).toBe(403);
    expect((await input(d, move, screen)).statusCode).toBe(403);
    expect((await input(d, move, drive)).statusCode).toBe(200);
    expect((await frameWith(modify)).statusCode).toBe(403);
    expect((await frameWith(drive)).statusCode).toBe(403);
    expect((await frameWith(screen)).statusCode).toBe(200);
    const shot = await h.call('get_kasm_screenshot', { kasm_id: d.kasmId }, screen);
    expect(shot.statusCode).toBe(200);
  });

  it('acts as the session’s user: a key lacking what their groups grant is refused', async () => {
    const { h, groupId } = d.w;
    const granted = await h.call('update_group', {
      target_group: { group_id: groupId, permissions: ['users.view'] },
    });
    expect(granted.statusCode).toBe(200);
    try {
      const move = [{ type: 'move', x: 10, y: 10 }];
      const lacking = await input(d, move, await h.issueKey(['sessions.drive']));
      expect(lacking.statusCode).toBe(403);
      expect(lacking.json().code).toBe('FORBIDDEN');
      const holding = await h.issueKey(['sessions.drive', 'users.view']);
      expect((await input(d, move, holding)).statusCode).toBe(200);
    } finally {
      await h.call('update_group', { target_group: { group_id: groupId, permissions: [] } });
    }
  });

  it('answers another user’s session as not found, and a point off the screen as a 400', async () => {
    const other = await d.w.member('grace');
    const theirs = await d.w.h.call('send_kasm_input', {
      kasm_id: d.kasmId,
      user_id: other.user_id,
      actions: [{ type: 'move', x: 1, y: 1 }],
    });
    expect(theirs.statusCode).toBe(404);
    const frameOfOther = await d.w.h.call('get_kasm_frame', {
      kasm_id: d.kasmId,
      user_id: other.user_id,
    });
    expect(frameOfOther.statusCode).toBe(404);
    const off = await input(d, [{ type: 'click', x: 1280, y: 10 }]);
    expect(off.statusCode).toBe(400);
    expect(off.json().errors).toEqual([
      { field: 'actions/0/x', message: "must be less than the screen's width 1280" },
    ]);
  });

  it('audits input with its counts and the typed text’s digest, never the text', async () => {
    const text = 'a private line';
    expect((await input(d, [{ type: 'type', text }])).statusCode).toBe(200);
    const log = await d.w.h.call('get_audit_log', { operation: 'send_kasm_input' });
    const [event] = log.json().events;
    expect(event).toMatchObject({
      result: 'success',
      channel: 'api',
      before: {
        input: {
          actions: { type: 1 },
          characters: text.length,
          text_sha256: createHash('sha256').update(text).digest('hex'),
        },
      },
    });
    expect(JSON.stringify(log.json())).not.toContain(text);
    // Clears the line it typed, so the terminal is as the other tests left it.
    await input(d, [{ type: 'key', keys: 'ctrl+u' }]);
  });

  it('answers 404 once the session ended, and drops its connection', async () => {
    expect((await d.w.h.call('destroy_kasm', { kasm_id: d.kasmId })).statusCode).toBe(200);
    expect((await input(d, [{ type: 'move', x: 1, y: 1 }])).statusCode).toBe(404);
    expect((await d.w.h.call('get_kasm_frame', { kasm_id: d.kasmId })).statusCode).toBe(404);
  });
});

describe('the Kasm-like way: HTTPS on 6901 with Basic auth, no socket hop', () => {
  let d: Driven;
  beforeAll(async () => {
    d = await drivenDesktop({});
  });
  afterAll(() => closeWorld(d?.w));

  drivesTheDesktop(() => d, 'tls');

  it('answers 409 KASM_NO_DISPLAY for a workspace with no VNC stream', async () => {
    const { user_id } = await d.w.member('web');
    const web = await d.w.request({ user_id, image_id: d.w.imageId });
    await d.w.waitForStatus(toUuid(web.kasm_id), 'running');
    const res = await d.w.h.call('get_kasm_frame', { kasm_id: web.kasm_id });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('KASM_NO_DISPLAY');
  });

  it('answers 409 for a stopped session, and drives it again once resumed', async () => {
    expect((await d.w.h.call('stop_kasm', { kasm_id: d.kasmId })).statusCode).toBe(200);
    const stopped = await input(d, [{ type: 'move', x: 1, y: 1 }]);
    expect(stopped.statusCode).toBe(409);
    expect(stopped.json().code).toBe('KASM_NOT_RUNNING');
    const resumed = await d.w.h.call('resume_kasm', { kasm_id: d.kasmId });
    expect(resumed.json()).toMatchObject({ kasm: { operational_status: 'running' } });
    await waitFor(
      async () => {
        expect((await input(d, [{ type: 'move', x: 5, y: 5 }])).statusCode).toBe(200);
      },
      LONG,
      250,
    );
    expect((await frame(d)).width).toBe(1280);
  });
});
