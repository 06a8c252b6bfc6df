import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { toWireId } from '@platform/schemas';
import { socketPathIn } from '../domain';

// Linux's O_PATH (Node names no constant for it): a handle on the inode itself, link or not.
const O_PATH = 0o10000000;

/** Which way the proxy reaches a session: the Unix socket, or the container's TLS port. */
export type Hop = 'socket' | 'tls';

/**
 * The socket hop: sessions on this machine's engine serve the proxy on a Unix socket in a
 * folder of SESSION_SOCKETS_DIR ('' for off), skipping the engine's port proxy and a TLS layer
 * that costs more CPU than the stream's copy itself (docs/decisions/0006-socket-hop.md). The
 * service makes and removes the folders; the images' hop servers (uid 0 in the container) fill them.
 */
export function createSocketHop(socketsDir: string) {
  const socketOf = (kasmId: string) => socketPathIn(socketsDir, toWireId(kasmId));
  return {
    socketsDir,

    /** Makes SESSION_SOCKETS_DIR, reachable by this service's user only. */
    async open(): Promise<void> {
      if (!socketsDir) return;
      // Only the last folder is closed: `recursive` would give every parent it makes mode 0700
      // too, and `.data` would shut the embedded PostgreSQL's user out.
      await mkdir(path.dirname(socketsDir), { recursive: true });
      await mkdir(socketsDir, { recursive: true, mode: 0o700 });
      if (!(await lstat(socketsDir)).isDirectory())
        throw new Error(`SESSION_SOCKETS_DIR (${socketsDir}) is not a folder`);
      await chmod(socketsDir, 0o700);
    },

    /**
     * Makes a session's folder (socketFolderOf), owned by this service's user (root, as the
     * engine's socket requires) and writable by it alone: in the container the image's hop
     * command, run as uid 0, serves there; the desktop's user can neither add nor replace a
     * socket. The 0700 folder around it keeps everyone else on the machine out.
     */
    async prepare(folder: string): Promise<void> {
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { mode: 0o700 });
      await chmod(folder, 0o755);
    },

    /** Removes a session's folder, if the hop is on; links inside are removed, not followed. */
    async remove(kasmId: string): Promise<void> {
      if (socketsDir) await rm(path.dirname(socketOf(kasmId)), { recursive: true, force: true });
    },

    /** Whether the session's folder holds a socket now (which hop its next request takes). */
    async hasSocket(kasmId: string): Promise<boolean> {
      if (!socketsDir) return false;
      const info = await lstat(socketOf(kasmId)).catch(() => null);
      return info?.isSocket() === true;
    },

    /**
     * A connection to the session's socket. The container owns its folder and may swap the
     * socket for a link at any moment (to the engine's own socket, say), so the socket is opened
     * without following links, checked, and connected to through that open handle: the peer is
     * the inode checked, whatever the name points at by then.
     */
    async connect(kasmId: string): Promise<net.Socket> {
      const socketPath = socketOf(kasmId);
      const handle = await open(socketPath, O_PATH | constants.O_NOFOLLOW);
      try {
        if (!(await handle.stat()).isSocket())
          throw new Error(`${socketPath} is not a socket; not followed`);
      } catch (error) {
        await handle.close();
        throw error;
      }
      const socket = net.connect({ path: `/proc/self/fd/${handle.fd}` });
      let closed = false;
      const close = () => {
        if (!closed) void handle.close().catch(() => undefined);
        closed = true;
      };
      socket.once('connect', close).once('error', close).once('close', close);
      return socket;
    },
  };
}
export type SocketHop = ReturnType<typeof createSocketHop>;
