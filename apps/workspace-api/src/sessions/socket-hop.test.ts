import { lstat, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { socketFolderOf } from '../domain';
import { createSocketHop } from './socket-hop';

const KASM = '0123456789abcdef0123456789abcdef';
const DASHED = '01234567-89ab-cdef-0123-456789abcdef';

/** A real listening socket that answers each connection with `name` and closes. */
async function listen(socketPath: string, name: string): Promise<net.Server> {
  const server = net.createServer((c) => c.end(name));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return server;
}
async function answerOf(socket: net.Socket): Promise<string> {
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  return answer;
}

describe('the socket hop', () => {
  let root: string;
  let dir: string;
  const servers: net.Server[] = [];
  beforeEach(async () => {
    // Short: a Unix socket's path holds at most 107 bytes.
    root = await mkdtemp(path.join(tmpdir(), 'hop-'));
    dir = path.join(root, 'sockets');
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    await rm(root, { recursive: true, force: true });
  });

  async function sessionFolder() {
    const hop = createSocketHop(dir);
    await hop.open();
    const folder = socketFolderOf(dir, KASM, 'unix:///var/run/docker.sock') as string;
    await hop.prepare(folder);
    return { hop, folder };
  }

  it('makes SESSION_SOCKETS_DIR 0700 and each session folder 0755, owned by the service', async () => {
    const { folder } = await sessionFolder();
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(folder)).mode & 0o777).toBe(0o755);
    expect((await stat(folder)).uid).toBe(process.getuid?.());
    expect(folder).toBe(path.join(dir, KASM));
  });

  it('leaves the folders it makes above SESSION_SOCKETS_DIR enterable (.data, which the database’s user enters)', async () => {
    const data = path.join(root, 'data');
    const hop = createSocketHop(path.join(data, 'session-sockets'));
    await hop.open();
    expect((await stat(data)).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(data, 'session-sockets'))).mode & 0o777).toBe(0o700);
  });

  it('connects to the socket in the session’s folder, whichever way the kasm id is written', async () => {
    const { hop, folder } = await sessionFolder();
    servers.push(await listen(path.join(folder, 'websockify.sock'), 'session'));
    expect(await hop.hasSocket(DASHED)).toBe(true);
    expect(await answerOf(await hop.connect(DASHED))).toBe('session');
  });

  it('never follows a link planted in place of the socket, to a socket elsewhere', async () => {
    const { hop, folder } = await sessionFolder();
    const elsewhere = path.join(root, 'engine.sock');
    servers.push(await listen(elsewhere, 'engine'));
    await symlink(elsewhere, path.join(folder, 'websockify.sock'));
    expect(await hop.hasSocket(KASM)).toBe(false);
    await expect(hop.connect(KASM)).rejects.toThrow(/not a socket/);
  });

  it('has no socket for a session without a folder, or with the hop off', async () => {
    const { hop } = await sessionFolder();
    expect(await hop.hasSocket('f'.repeat(32))).toBe(false);
    await expect(hop.connect('f'.repeat(32))).rejects.toThrow(/ENOENT/);
    expect(await createSocketHop('').hasSocket(KASM)).toBe(false);
  });

  it('removes a session’s folder with what the container left in it, links unfollowed', async () => {
    const { hop, folder } = await sessionFolder();
    const kept = path.join(root, 'kept');
    servers.push(await listen(kept, 'kept'));
    await symlink(root, path.join(folder, 'link'));
    await hop.remove(DASHED);
    await expect(lstat(folder)).rejects.toThrow(/ENOENT/);
    expect(await readdir(root)).toEqual(expect.arrayContaining(['kept', 'sockets']));
  });
});
