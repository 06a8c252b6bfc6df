import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseExposition, sampleSum } from '@platform/metrics';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { ChunkType, readChunks, screenAt, verifyRecording } from '../../src/session-recording';
import { closeWorld, docker } from '../engine/session-fixture';
import { followConnectLink, viewThroughProxy } from './own-workspaces';
import {
  finished,
  launch,
  LONG,
  METRICS_TOKEN,
  type Recorded,
  recordedWorld,
  recordingOf,
  setPolicy,
} from './recorded-world';
import { connectViewer, type RfbViewer } from './rfb-viewer';

// Recording real desktops (docs/recording.md): the Desktop image on the socket hop, and the
// Kasm-like way (HTTPS on 6901 behind Basic auth, the pinned certificate, no hop).
jest.setTimeout(8 * LONG);

/** The terminal the desktop opens (workspace-apps: background #1d2128). */
const TERMINAL = { x: 200, y: 150, background: [0x1d, 0x21, 0x28] };
const RETURN = 0xff0d;
const CONTROL = 0xffe3;

/** Clicks the terminal, clears its line and types `command` with Return, through the proxy. */
function typeInto(viewer: RfbViewer, command: string) {
  viewer.pointer(TERMINAL.x, TERMINAL.y, 1);
  viewer.pointer(TERMINAL.x, TERMINAL.y, 0);
  viewer.key(CONTROL, true);
  viewer.key('u'.charCodeAt(0), true);
  viewer.key('u'.charCodeAt(0), false);
  viewer.key(CONTROL, false);
  for (const keysym of [...command].map((c) => c.charCodeAt(0)).concat(RETURN)) {
    viewer.key(keysym, true);
    viewer.key(keysym, false);
  }
}

/** Types `echo <word> > /tmp/<word>` until the file holds it: input races on a loaded machine. */
async function typeUntilDone(r: Recorded, kasmId: string, viewer: RfbViewer, word: string) {
  await waitFor(
    async () => {
      typeInto(viewer, `echo ${word} > /tmp/${word}`);
      await waitFor(
        async () => {
          const res = await r.w.h.call('exec_command_kasm', {
            kasm_id: kasmId,
            exec_config: { cmd: `cat /tmp/${word}` },
          });
          if (res.json().output !== `${word}\n`) throw new Error(res.json().output);
        },
        5000,
        250,
      );
    },
    LONG,
    0,
  );
}

/** Where a program clicks through send_kasm_input: apart from the viewer's clicks (TERMINAL). */
const DRIVEN = { x: TERMINAL.x + 7, y: TERMINAL.y + 3 };

/** A program clicks the terminal and types a shell comment, through the driving API. */
async function driveInput(r: Recorded, kasmId: string) {
  const res = await r.w.h.call('send_kasm_input', {
    kasm_id: kasmId,
    actions: [
      { type: 'click', ...DRIVEN },
      { type: 'type', text: '# driven' },
      { type: 'key', keys: 'Return' },
    ],
  });
  expect(res.statusCode).toBe(200);
}

/** The pointer events of a recording at (x, y), and the characters its key presses typed. */
function inputOf(chunks: { type: number; payload: Buffer }[], at: { x: number; y: number }) {
  const pointer = chunks.filter(
    (c) =>
      c.type === ChunkType.pointer &&
      c.payload.readUInt16BE(2) === at.x &&
      c.payload.readUInt16BE(4) === at.y,
  );
  const typed = chunks
    .filter((c) => c.type === ChunkType.key && c.payload[1] === 1)
    .map((c) => String.fromCharCode(c.payload.readUInt32BE(4)))
    .join('');
  return { pointer: pointer.length, typed };
}

const pixel = (screen: { width: number; bgrx: Buffer }, x: number, y: number) => [
  ...screen.bgrx.subarray((y * screen.width + x) * 4, (y * screen.width + x) * 4 + 3),
];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function failureCount(r: Recorded, outcome: string) {
  const res = await r.w.h.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return sampleSum(parseExposition(res.body), 'workspace_recording_failures_total', { outcome });
}

describe('on the socket hop, keystrokes recorded', () => {
  let r: Recorded;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'rec-'));
    r = await recordedWorld({ SESSION_SOCKETS_DIR: path.join(root, 's') });
  });
  afterAll(async () => {
    await closeWorld(r?.w);
    await rm(root, { recursive: true, force: true });
    if (r) await rm(r.dir, { recursive: true, force: true });
  });

  it('records from the first frame with nobody watching, then a viewer typing; root killing every process leaves a complete, verifiable recording', async () => {
    const image = await setPolicy(r, {
      record_sessions: true,
      record_keystrokes: true,
      recording_retention_days: 30,
    });
    expect(image).toMatchObject({ record_sessions: true, record_keystrokes: true });
    const { kasmId, kasmUrl } = await launch(r);
    // Nobody opened the session: the service's own connection records it.
    const started = await waitFor(async () => {
      const row = await recordingOf(r, kasmId);
      if (!row?.digest) throw new Error('no recording on disk yet');
      return row;
    }, LONG);
    expect(started).toMatchObject({ status: 'recording', keystrokes: true });
    expect(started.path).toMatch(/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}-[0-9a-f-]{36}\.rec$/);
    expect(started.expiresAt?.getTime()).toBe(started.startedAt.getTime() + 30 * 86_400_000);

    const cookie = await followConnectLink(r.origin, kasmUrl);
    const viewer = await viewThroughProxy(r.origin, kasmId, cookie);
    await typeUntilDone(r, kasmId, viewer, 'recorded');
    viewer.close();
    await driveInput(r, kasmId);

    // Root in the container kills every process (and deletes files): the desktop is gone.
    const [container] = await r.w.containersOf(toUuid(kasmId));
    const exec = await docker.getContainer(container.Id).exec({
      Cmd: ['sh', '-c', 'rm -rf /tmp/* /home/*; kill -9 -1'],
      User: 'root',
    });
    await exec.start({ Detach: true });

    const row = await finished(r, kasmId);
    expect(row.status).toBe('complete');
    const file = await readFile(path.join(r.dir, row.path));
    const verified = verifyRecording(file, null, row.digest);
    expect(verified).toMatchObject({ ok: true, ended: true, chunks: row.chunks });
    expect(Number(row.bytes)).toBe(file.length);

    const chunks = [...readChunks(file)];
    // The viewer's keys and the program's (send_kasm_input), the program's click at its place.
    const { typed, pointer } = inputOf(chunks, DRIVEN);
    expect(typed).toContain('echo recorded > /tmp/recorded');
    expect(typed).toContain('# driven');
    expect(pointer).toBe(3);
    // Decoded at its end, the screen shows the terminal, its text drawn since the start.
    const end = await screenAt(file, verified.ok ? verified.durationMs : 0);
    expect([end.width, end.height]).toEqual([1280, 800]);
    // (Away from the pointer, which the server draws into the screen where the viewer clicked.)
    expect(pixel(end, TERMINAL.x + 200, TERMINAL.y + 100)).toEqual(TERMINAL.background);
    const keyframes = chunks.filter((c) => c.type === ChunkType.keyframe);
    const first = await screenAt(file, keyframes[0].at);
    expect(keyframes.length).toBeGreaterThanOrEqual(1);
    let changed = 0;
    for (let y = 42; y < 102; y++)
      for (let x = 50; x < 750; x++)
        if (pixel(first, x, y).join() !== pixel(end, x, y).join()) changed++;
    expect(changed).toBeGreaterThan(100);

    // One byte changed in the middle of the file: the chain no longer holds.
    const flipped = Buffer.from(file);
    flipped[Math.floor(file.length / 2)] ^= 0x20;
    expect(verifyRecording(flipped, null).ok).toBe(false);
  });
});

describe('the Kasm-like way: HTTPS on 6901, no socket hop', () => {
  let r: Recorded;
  beforeAll(async () => {
    r = await recordedWorld({});
  });
  afterAll(async () => {
    await closeWorld(r?.w);
    if (r) await rm(r.dir, { recursive: true, force: true });
  });

  it('with the policy off writes nothing, though a viewer types', async () => {
    await setPolicy(r, { record_sessions: false });
    const { kasmId, kasmUrl } = await launch(r);
    const viewer = await viewThroughProxy(
      r.origin,
      kasmId,
      await followConnectLink(r.origin, kasmUrl),
    );
    await typeUntilDone(r, kasmId, viewer, 'unrecorded');
    viewer.close();
    await r.w.h.app.recordings.scan();
    expect(await recordingOf(r, kasmId)).toBeNull();
    expect(await filesUnder(r.dir)).toEqual([]);
    expect((await r.w.h.call('destroy_kasm', { kasm_id: kasmId })).statusCode).toBe(200);
  });

  it('with keystrokes off holds the pointer but no key event', async () => {
    await setPolicy(r, { record_sessions: true, record_keystrokes: false });
    const { kasmId, kasmUrl } = await launch(r);
    const viewer = await viewThroughProxy(
      r.origin,
      kasmId,
      await followConnectLink(r.origin, kasmUrl),
    );
    await typeUntilDone(r, kasmId, viewer, 'secret');
    viewer.close();
    await driveInput(r, kasmId);
    expect((await r.w.h.call('destroy_kasm', { kasm_id: kasmId })).statusCode).toBe(200);
    const row = await finished(r, kasmId);
    expect(row).toMatchObject({ status: 'complete', keystrokes: false });
    const file = await readFile(path.join(r.dir, row.path));
    expect(verifyRecording(file, null, row.digest).ok).toBe(true);
    const chunks = [...readChunks(file)];
    const types = new Set(chunks.map((c) => c.type));
    expect(types.has(ChunkType.pointer)).toBe(true);
    expect(types.has(ChunkType.key)).toBe(false);
    // The program's click is there too; its typing is not.
    expect(inputOf(chunks, DRIVEN)).toEqual({ pointer: 3, typed: '' });
  });

  it('refuses a viewer when the recording cannot be written and the policy says refuse: metric and audit show it', async () => {
    await setPolicy(r, { record_sessions: true, refuse_unrecorded: true });
    // The day's folder cannot be made: a file stands where its year's folder goes.
    const year = String(new Date().getUTCFullYear());
    await rm(path.join(r.dir, year), { recursive: true, force: true });
    await writeFile(path.join(r.dir, year), 'in the way');
    const before = await failureCount(r, 'refused');
    const { kasmId, kasmUrl } = await launch(r);
    const cookie = await followConnectLink(r.origin, kasmUrl);
    await waitFor(async () => {
      expect(await failureCount(r, 'refused')).toBeGreaterThan(before);
    }, LONG);
    const url = `${r.origin.replace('http', 'ws')}/kasm/${kasmId}/websockify`;
    await expect(connectViewer(url, { origin: r.origin, cookie })).rejects.toThrow(/503/);
    const log = await r.w.h.call('get_audit_log', { operation: 'recording_failed' });
    expect(log.json().events[0]).toMatchObject({
      result: 'failed',
      channel: 'session',
      target: { type: 'kasm', id: kasmId },
    });
  });
});
