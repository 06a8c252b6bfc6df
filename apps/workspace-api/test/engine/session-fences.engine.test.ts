import { lstat, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import {
  buildHopImage,
  closeWorld,
  createSessionWorld,
  docker,
  LONG,
  type SessionWorld,
} from './session-fixture';

// What every session container is held to (docs/sessions.md, "What a container gets"), proved
// on the test web image, which runs as root as a registry image may: a root process there gets no
// capability, no new privileges, a bounded process table and a network no other session is on;
// the socket hop's folder reaches only an image that declares the hop, served as root.
jest.setTimeout(4 * LONG);

const HOP_IMAGE = 'platform-test/web-with-hop:1';
// The hop's server answers with the uid it runs as.
const HOP_SERVER = `require('node:net').createServer((s) => s.end(String(process.getuid())))
  .listen('/run/workspace-platform/websockify.sock');`;

let w: SessionWorld;
let root: string;
let socketsDir: string;

beforeAll(async () => {
  // Short: a Unix socket's path holds at most 107 bytes.
  root = await mkdtemp(path.join(tmpdir(), 'fence-'));
  socketsDir = path.join(root, 's');
  w = await createSessionWorld({ SESSION_SOCKETS_DIR: socketsDir });
  await buildHopImage(HOP_IMAGE, HOP_SERVER);
});
afterAll(async () => {
  await closeWorld(w);
  await rm(root, { recursive: true, force: true });
  await docker
    .getImage(HOP_IMAGE)
    .remove({ force: true })
    .catch(() => undefined);
});

/** Runs a command in the session's container as `user` (root by default): exit code and output. */
async function run(kasmId: string, cmd: string, user = '0') {
  const [info] = await w.containersOf(kasmId);
  const exec = await docker
    .getContainer(info.Id)
    .exec({ Cmd: ['/bin/sh', '-c', cmd], User: user, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => (output += chunk.toString()));
  docker.modem.demuxStream(stream, out, out);
  await new Promise((resolve) => stream.on('end', resolve).on('close', resolve));
  (stream as unknown as { destroy(): void }).destroy();
  return { exitCode: (await exec.inspect()).ExitCode, output };
}

async function launch(username: string, imageId = w.imageId) {
  const { user_id } = await w.member(username);
  const { kasm_id } = await w.request({ user_id, image_id: imageId });
  await w.waitForStatus(toUuid(kasm_id), 'running');
  const [info] = await w.containersOf(kasm_id);
  const inspected = await docker.getContainer(info.Id).inspect();
  const [network] = Object.entries(inspected.NetworkSettings.Networks);
  return { kasmId: kasm_id, userId: user_id, inspected, network: network[0], ...network[1] };
}

describe('a session container', () => {
  it('keeps a root process to what a root image needs: no raw socket for an ARP spoof', async () => {
    const { kasmId, Gateway } = await launch('raw');
    const status = await run(kasmId, 'id -u; grep -E "^Cap(Eff|Bnd)" /proc/self/status');
    // CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, NET_BIND_SERVICE; not NET_RAW.
    expect(status.output).toMatch(/^0\nCapEff:\s+0+4fb\nCapBnd:\s+0+4fb\n$/);
    const arp = await run(kasmId, `arping -c 1 -w 2 -I eth0 ${Gateway}`);
    expect(arp.exitCode).not.toBe(0);
    expect(arp.output).toContain('Operation not permitted');
    const dropped = await run(kasmId, 'grep -E "^Cap(Eff|Bnd)" /proc/self/status', '1000');
    expect(dropped.output).toMatch(/^CapEff:\s+0+\nCapBnd:\s+0+4fb\n$/);
  });

  it('does not let a setuid-root program raise another user to root (no-new-privileges)', async () => {
    const { kasmId } = await launch('setuid');
    expect((await run(kasmId, 'chmod u+s /bin/node && ls -l /bin/node')).output).toMatch(/^-rws/);
    const euid = await run(
      kasmId,
      `/bin/node -e 'process.stdout.write(String(process.geteuid()))'`,
      '1000',
    );
    expect(euid).toEqual({ exitCode: 0, output: '1000' });
  });

  it('bounds a fork bomb by its PID limit', async () => {
    const { kasmId, userId, inspected } = await launch('forks');
    expect(inspected.HostConfig.PidsLimit).toBe(1024);
    // The bomb runs in a child shell, which ends at its first failed fork; the count is then
    // read by this shell's builtins, as another program may not start with the table full.
    const bomb = await run(
      kasmId,
      `sh -c 'i=0; while [ $i -lt 1300 ]; do sleep 600 & i=$((i+1)); done' 2>&1; ` +
        'read n < /sys/fs/cgroup/pids/pids.current || read n < /sys/fs/cgroup/pids.current; echo "in use: $n"',
    );
    expect(bomb.output).toContain("can't fork");
    const inUse = Number(/in use: (\d+)/.exec(bomb.output)?.[1]);
    expect(inUse).toBeGreaterThan(1000);
    expect(inUse).toBeLessThanOrEqual(1024);
    await w.h.call('destroy_kasm', { kasm_id: kasmId, user_id: userId });
  });

  it('is on a network of its own: another session’s address is neither on its link nor reachable', async () => {
    const a = await launch('alice');
    const b = await launch('bob');
    expect(a.network).not.toBe(b.network);
    expect(a.network).toBe(`session-${a.kasmId}`);
    const reach = await run(
      a.kasmId,
      `wget -q -T 3 -O - http://${b.IPAddress}:8080/ && echo reached`,
    );
    expect(reach.output).not.toContain('reached');
    // Not a neighbour: the address is not in the link's subnet, so no ARP is ever sent for it.
    const route = await run(a.kasmId, `ip route get ${b.IPAddress}`);
    expect(route.output).toContain(`via ${a.Gateway}`);

    const destroyed = await w.h.call('destroy_kasm', { kasm_id: a.kasmId, user_id: a.userId });
    expect(destroyed.statusCode).toBe(200);
    await expect(docker.getNetwork(a.network).inspect()).rejects.toThrow(/404|not found/i);
  });

  it('has its network removed by the reconciler when the session is gone and no container holds it', async () => {
    const orphan = '0123456789abcdef0123456789abcdef';
    await docker.createNetwork({
      Name: `session-${orphan}`,
      Labels: { 'io.workspace-platform.session-id': orphan },
    });
    await waitFor(async () => {
      await w.h.app.sessionWorker.round();
      await expect(docker.getNetwork(`session-${orphan}`).inspect()).rejects.toThrow();
    }, LONG);
  });
});

describe('the socket hop’s folder', () => {
  it('is not mounted into an image that does not declare the hop (Kasm’s, the test web image)', async () => {
    const { inspected } = await launch('plain');
    expect(inspected.Mounts.map((m) => m.Destination)).not.toContain('/run/workspace-platform');
  });

  it('is owned by root and not writable by uid 1000, whose server runs as root and cannot be replaced', async () => {
    const imageId = await w.addImage({ name: HOP_IMAGE, persistentProfilePath: '' });
    const { kasmId } = await launch('hop', imageId);
    const folder = path.join(socketsDir, kasmId);
    const socketPath = path.join(folder, 'websockify.sock');
    const made = await stat(folder);
    expect([made.uid, made.mode & 0o777]).toEqual([0, 0o755]);
    await waitFor(async () => expect((await lstat(socketPath)).isSocket()).toBe(true), LONG);

    const attempt = await run(
      kasmId,
      '{ rm -f /run/workspace-platform/websockify.sock; touch /run/workspace-platform/x; ' +
        'kill -9 $(pidof node); } 2>&1; ls /run/workspace-platform',
      '1000',
    );
    expect(attempt.output).toContain('Permission denied');
    expect(attempt.output).toContain('Operation not permitted');
    expect(attempt.output).toMatch(/websockify\.sock\n$/);
    const net = await import('node:net');
    const answer = await new Promise<string>((resolve, reject) => {
      let said = '';
      net
        .connect(socketPath)
        .on('data', (c) => (said += c.toString()))
        .on('end', () => resolve(said))
        .on('error', reject);
    });
    expect(answer).toBe('0');
  });
});
