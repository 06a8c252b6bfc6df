import WebSocket from 'ws';
import { waitFor } from '@platform/testing';
import { inContainer, openSession } from '../session-files/files-fixture';
import {
  closeDesktopWorld,
  createDesktopWorld,
  launchDesktop,
  LONG,
  type DesktopWorld,
  type LaunchedDesktop,
} from './desktop-fixture';
import { followConnectLink } from './own-workspaces';
// The tone and how the page hears it are one rule, shared with bench:sound (plain Node).
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  STOP_SOUND,
  TONE_PEAK,
  playTone,
  startSound,
  writeTone,
} from '../../../../tools/workspaces/desktop-sound.cjs';

// The Desktop workspace's sound, played in the desktop and heard in Chromium through the
// session's _audio WebSocket. This world has no socket hop (SESSION_SOCKETS_DIR empty): the
// stream goes over the container's TLS port 6901 as a Kasm image's does, and the sound through
// the engine's exec, which is the same on both paths.
jest.setTimeout(4 * LONG);

let world: DesktopWorld;
let desktop: LaunchedDesktop;
let containerId: string;
let audioUrl: string;

/** Runs `cmd` in the session's container as the desktop's user; answers its output. */
/** How often a wait looks for capture processes again (each look is an exec; its limit is LONG). */
const POLL_MS = 1000;
const asDesktopUser = (cmd: string) => inContainer(containerId, cmd, '1000');

/** How many parec processes the container runs (the capture's). */
const capturesRunning = async () =>
  Number((await asDesktopUser('cat /proc/[0-9]*/comm 2>/dev/null | grep -c "^parec$"')).trim());

interface AudioAnswer {
  status: number;
  code?: string;
  socket?: WebSocket;
  /** The first message (the format), kept from the moment the socket opened. */
  first?: Promise<string>;
}

/** The answer to an upgrade on the sound's WebSocket from Node: opened, or the status and code. */
function openAudio(url: string, headers: Record<string, string>) {
  return new Promise<AudioAnswer>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const first = new Promise<string>((done) => socket.once('message', (m) => done(String(m))));
    socket.once('open', () => resolve({ status: 101, socket, first }));
    socket.once('unexpected-response', (_request, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => {
        socket.terminate();
        resolve({ status: res.statusCode ?? 0, code: (JSON.parse(body) as { code: string }).code });
      });
    });
    socket.once('error', (error) => reject(error));
  });
}

async function grantOf(kasmId: string, userId: string): Promise<string> {
  const status = await world.w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId });
  return followConnectLink(world.origin, status.json().kasm_url);
}

beforeAll(async () => {
  world = await createDesktopWorld(['Desktop'], {}, ['--autoplay-policy=no-user-gesture-required']);
  desktop = await launchDesktop(world, 'Desktop');
  [{ Id: containerId }] = await world.w.containersOf(desktop.kasmId);
  audioUrl = `${world.origin.replace('http', 'ws')}/kasm/${desktop.kasmId}/_audio`;
  await desktop.tab.addScriptTag({
    url: `${world.origin}/kasm/${desktop.kasmId}/_audio/player.js`,
  });
});
afterAll(() => closeDesktopWorld(world));

describe('the desktop’s sound in the page', () => {
  it('plays a 1 kHz tone played in the desktop (paplay) in the page, heard at 1000 ± 5 Hz', async () => {
    await desktop.tab.evaluate(startSound());
    // Long enough for a window with no gap to come by on a loaded machine; the wait ends at it.
    await asDesktopUser(writeTone(1000, 20));
    const playing = asDesktopUser(playTone(1000));
    const peak = await waitFor(
      async () => {
        const heard = (await desktop.tab.evaluate(TONE_PEAK)) as {
          frequency: number;
          db: number;
          full: boolean;
        };
        if (!heard.full) throw new Error(`the tone does not fill the window yet (${heard.db} dB)`);
        return heard;
      },
      LONG,
      100,
    );
    await asDesktopUser('kill $(pidof paplay) 2>/dev/null; true');
    await playing.catch(() => undefined);
    expect(peak.db).toBeGreaterThan(-40);
    expect(Math.abs(peak.frequency - 1000)).toBeLessThanOrEqual(5);
  });

  it('ends the capture in the container when the page stops the sound', async () => {
    expect(await capturesRunning()).toBe(1);
    await desktop.tab.evaluate(STOP_SOUND);
    await waitFor(async () => expect(await capturesRunning()).toBe(0), LONG, POLL_MS);
  });
});

describe('who may hear it', () => {
  it('refuses with 403 SESSION_AUDIO_REFUSED while the workspace has allow_kasm_audio off, and stops a stream when it is turned off', async () => {
    const imageId = world.imageIds.Desktop;
    const off = await world.w.h.call('update_image', {
      target_image: { image_id: imageId, allow_kasm_audio: false },
    });
    expect(off.json().image.allow_kasm_audio).toBe(false);
    const refused = await desktop.tab.evaluate(
      `platformSessionAudio.start().then(() => 'started', (e) => e.status + ' ' + e.code)`,
    );
    expect(refused).toBe('403 SESSION_AUDIO_REFUSED');
    const cookie = await grantOf(desktop.kasmId, world.userId);
    const byNode = await openAudio(audioUrl, { origin: world.origin, cookie });
    expect(byNode).toMatchObject({ status: 403, code: 'SESSION_AUDIO_REFUSED' });
    expect(await capturesRunning()).toBe(0);

    await world.w.h.call('update_image', {
      target_image: { image_id: imageId, allow_kasm_audio: true },
    });
    const on = await openAudio(audioUrl, { origin: world.origin, cookie });
    expect(on.status).toBe(101);
    const format = await on.first;
    expect(JSON.parse(String(format))).toEqual({ format: 's16le', rate: 48000, channels: 2 });
    // Turned off while it plays, the sound stops (within the sockets' recheck), capture and all.
    const closed = new Promise((resolve) => on.socket?.once('close', resolve));
    await world.w.h.call('update_image', {
      target_image: { image_id: imageId, allow_kasm_audio: false },
    });
    await closed;
    await waitFor(async () => expect(await capturesRunning()).toBe(0), LONG, POLL_MS);
    await world.w.h.call('update_image', {
      target_image: { image_id: imageId, allow_kasm_audio: true },
    });
  });

  it('sends mono on ?channels=1, in whole frames, says so to a plain GET, and refuses other counts', async () => {
    const cookie = await grantOf(desktop.kasmId, world.userId);
    const mono = await openAudio(`${audioUrl}?channels=1`, { origin: world.origin, cookie });
    expect(JSON.parse(String(await mono.first))).toEqual({
      format: 's16le',
      rate: 48000,
      channels: 1,
    });
    const sizes: number[] = [];
    await new Promise<void>((done) =>
      mono.socket?.on('message', (data: Buffer) => {
        sizes.push(data.length);
        if (sizes.length === 10) done();
      }),
    );
    mono.socket?.close();
    expect(sizes.filter((size) => size % 2 !== 0)).toEqual([]);
    const http = audioUrl.replace(/^ws/, 'http');
    const plain = await fetch(`${http}?channels=1`, { headers: { cookie } });
    expect(await plain.json()).toEqual({ format: 's16le', rate: 48000, channels: 1 });
    expect((await fetch(`${http}?channels=3`, { headers: { cookie } })).status).toBe(400);
    await waitFor(async () => expect(await capturesRunning()).toBe(0), LONG, POLL_MS);
  });

  it('refuses no grant (401), another user’s grant (403), a page of another origin (403), and an image without PulseAudio (409)', async () => {
    expect((await openAudio(audioUrl, { origin: world.origin })).status).toBe(401);
    const other = await world.w.member('other');
    // Their session runs the platform's small test image: no PulseAudio, as some Kasm images.
    const theirs = await openSession(world.w, world.origin, other.user_id);
    const crossed = await openAudio(audioUrl, { origin: world.origin, cookie: theirs.cookie });
    expect(crossed).toMatchObject({ status: 403, code: 'SESSION_ACCESS_DENIED' });
    const own = await grantOf(desktop.kasmId, world.userId);
    const elsewhere = await openAudio(audioUrl, { origin: 'http://elsewhere.test', cookie: own });
    expect(elsewhere).toMatchObject({ status: 403, code: 'SESSION_ORIGIN_REJECTED' });

    const silent = `${world.origin.replace('http', 'ws')}/kasm/${theirs.kasmId}/_audio`;
    const unavailable = await openAudio(silent, { origin: world.origin, cookie: theirs.cookie });
    expect(unavailable).toMatchObject({ status: 409, code: 'SESSION_AUDIO_UNAVAILABLE' });
  });
});

describe('a session that ends', () => {
  it('closes its sound: the page is told, and the stream is gone with the container', async () => {
    await desktop.tab.evaluate(
      `platformSessionAudio.start({ onEnd: (reason) => { window.__ended = reason || 'closed'; } }).then((a) => { window.__sessionAudio = a; })`,
    );
    expect(await capturesRunning()).toBe(1);
    const destroyed = await world.w.h.call('destroy_kasm', {
      kasm_id: desktop.kasmId,
      user_id: world.userId,
    });
    expect(destroyed.statusCode).toBe(200);
    await waitFor(
      async () => expect(await desktop.tab.evaluate('window.__ended')).toEqual(expect.any(String)),
      LONG,
      100,
    );
    expect(await desktop.tab.evaluate('platformSessionAudio.current()')).toBeNull();
  });
});
