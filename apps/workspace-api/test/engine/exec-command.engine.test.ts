import { createHash } from 'node:crypto';
import { pack } from 'tar-stream';
import { toUuid } from '@platform/schemas';
import { TEST_WEB_IMAGE, waitFor } from '@platform/testing';
import { closeWorld, createSessionWorld, docker, LONG, type SessionWorld } from './session-fixture';

// exec_command_kasm on a real engine: who may run as root, the time limit, the audit event; and
// a start-up step whose user the container maps to root.
jest.setTimeout(4 * LONG);

let w: SessionWorld;
beforeAll(async () => {
  w = await createSessionWorld({ EXEC_COMMAND_TIMEOUT_SECONDS: '2' });
});
afterAll(() => closeWorld(w));

// `toor` is root under another name; `worker` is an ordinary user.
const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'toor:x:0:0:root again:/root:/bin/sh',
  'worker:x:1000:1000::/tmp:/bin/sh',
  'nobody:x:65534:65534:nobody:/:/bin/false',
  '',
].join('\n');

/** How many of the processes list `sleep 301` or `sleep 302` on their command line. */
const LIVE_SLEEPS = `for p in /proc/[0-9]*; do tr '\\000' ' ' < $p/cmdline; echo; done 2>/dev/null | grep -c '^sleep 30[12]' || true`;

type Exec = { user?: string; privileged?: boolean };
async function run(kasmId: string, cmd: string, exec: Exec = {}, key = w.h.admin) {
  return w.h.call('exec_command_kasm', { kasm_id: kasmId, exec_config: { cmd, ...exec } }, key);
}

async function running(username: string, imageId = w.imageId) {
  const user = await w.member(username);
  const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
  await w.waitForStatus(toUuid(kasm_id), 'running');
  return kasm_id as string;
}

/** The test image with `toor` in its passwd file, running as uid 1000 rather than root. */
async function imageWithToor(): Promise<string> {
  const archive = pack();
  archive.entry({ name: 'passwd', mode: 0o644 }, PASSWD);
  archive.finalize();
  const container = await docker.createContainer({ Image: TEST_WEB_IMAGE });
  await container.putArchive(archive as unknown as NodeJS.ReadableStream, { path: '/etc' });
  await container.commit({ repo: 'platform-test/web-toor', tag: '1', changes: 'USER 1000' });
  await container.remove();
  return 'platform-test/web-toor:1';
}

/** The image above, made once for the file. */
let toorImage: Promise<string> | undefined;
const imageWithToorOnce = () => (toorImage ??= imageWithToor());

describe('exec_command_kasm on a real engine', () => {
  it('runs as root or privileged only for global_admin, toor and the image’s own root user included', async () => {
    const kasmId = await running('exec-root');
    const setup = await run(kasmId, `printf '${PASSWD}' > /etc/passwd`);
    expect(setup.json().exit_code).toBe(0);
    const operator = await w.h.issueKey(['sessions.modify']);
    for (const exec of [{ user: 'toor' }, { user: 'root' }, { privileged: true }, {}]) {
      const res = await run(kasmId, 'id -u', exec, operator);
      expect([JSON.stringify(exec), res.statusCode]).toEqual([JSON.stringify(exec), 403]);
      expect(res.json().detail).toContain('global_admin');
    }
    const ordinary = await run(kasmId, 'id -u', { user: 'worker' }, operator);
    expect(ordinary.json()).toMatchObject({ exit_code: 0, output: '1000\n' });
    expect((await run(kasmId, 'id -u', { user: 'toor' })).json().output).toBe('0\n');
  });

  it('ends a command running past EXEC_COMMAND_TIMEOUT_SECONDS with what it started, answering 124', async () => {
    const kasmId = await running('exec-timeout');
    const started = Date.now();
    const res = await run(kasmId, 'echo begun; sleep 301 & sleep 302; echo never');
    expect(res.json()).toMatchObject({ exit_code: 124, output: 'begun\n' });
    expect(Date.now() - started).toBeLessThan(60_000);
    await waitFor(async () => {
      const left = (await run(kasmId, LIVE_SLEEPS)).json();
      if (left.output.trim() !== '0') throw new Error(`still running: ${left.output}`);
    }, LONG);
  });

  it('ends a timed-out command of an image whose user is not root (killed as that user: the container’s root has no capabilities)', async () => {
    const imageId = await w.addImage({ name: await imageWithToorOnce() });
    const kasmId = await running('exec-timeout-user', imageId);
    const res = await run(kasmId, 'id -u; sleep 301 & sleep 302; echo never');
    expect(res.json()).toMatchObject({ exit_code: 124, output: '1000\n' });
    await waitFor(async () => {
      const left = (await run(kasmId, LIVE_SLEEPS)).json();
      if (left.output.trim() !== '0') throw new Error(`still running: ${left.output}`);
    }, LONG);
  });

  it('records the command’s digest, user and privileged flag in the audit event, refused or not', async () => {
    const kasmId = await running('exec-audit');
    const cmd = 'echo audited';
    const operator = await w.h.issueKey(['sessions.modify']);
    expect((await run(kasmId, cmd, { user: 'root' }, operator)).statusCode).toBe(403);
    expect((await run(kasmId, cmd, { privileged: false })).statusCode).toBe(200);
    const log = await w.h.call('get_audit_log', { operation: 'exec_command_kasm' });
    const events = log
      .json()
      .events.filter((e: { target: { id: string } | null }) =>
        [kasmId, toUuid(kasmId)].includes(e.target?.id ?? ''),
      );
    const sha = createHash('sha256').update(cmd).digest('hex');
    expect(
      events.map((e: { result: string; before: { command: unknown } }) => [
        e.result,
        e.before?.command,
      ]),
    ).toEqual([
      ['success', { cmd_sha256: sha, user: null, privileged: false }],
      ['denied', { cmd_sha256: sha, user: 'root', privileged: false }],
    ]);
    expect(JSON.stringify(events)).not.toContain(cmd);
  });
});

describe('a start-up step whose user the container maps to root', () => {
  it('runs as the image’s user when the workspace does not allow root commands', async () => {
    const imageId = await w.addImage({
      name: await imageWithToorOnce(),
      execConfig: { go: { cmd: 'id -u > /dev/shm/go-uid', user: 'toor' } },
    });
    const kasmId = await running('step-toor', imageId);
    expect((await run(kasmId, 'cat /dev/shm/go-uid')).json().output).toBe('1000\n');
  });
});
