import path from 'node:path';

/**
 * Where the socket hop's sockets lie (sessions/socket-hop.ts): a session on this machine's
 * engine gets `<SESSION_SOCKETS_DIR>/<kasm id>/` mounted at SOCKET_HOP_MOUNT, and the
 * platform's own images serve there on `websockify.sock`.
 */
export const SOCKET_HOP_MOUNT = '/run/workspace-platform';
/**
 * The image label that declares the hop: a shell command that serves the socket. The folder is
 * mounted only into such images, and the command runs as root (uid 0, no capabilities) beside
 * the image's own user, who can neither write the folder nor signal the server.
 */
export const SOCKET_HOP_LABEL = 'io.workspace-platform.socket-hop';
const SOCKET_NAME = 'websockify.sock';
// sockaddr_un holds 108 bytes with the terminating NUL.
const MAX_SOCKET_PATH = 107;
const WIRE_ID = /^[0-9a-f]{32}$/;

/** The socket of a session (its kasm id as 32 hex digits) below SESSION_SOCKETS_DIR. */
export const socketPathIn = (socketsDir: string, wireId: string) =>
  path.join(socketsDir, wireId, SOCKET_NAME);

/** Why SESSION_SOCKETS_DIR cannot hold the sessions' sockets, or null when it can. */
export function socketsDirProblem(socketsDir: string): string | null {
  const longest = socketPathIn(socketsDir, '0'.repeat(32));
  const bytes = Buffer.byteLength(longest);
  if (bytes <= MAX_SOCKET_PATH) return null;
  return `SESSION_SOCKETS_DIR (${socketsDir}) is too long: a session's socket there (${longest}) would take ${bytes} bytes, more than the ${MAX_SOCKET_PATH} a Unix socket path may have; choose a shorter folder, or leave it empty to turn the socket hop off`;
}

/**
 * The host folder to mount into a session's container, or undefined: the hop is off ('') or
 * the agent's engine is on another machine (tcp://), where the hop keeps its TLS.
 */
export function socketFolderOf(
  socketsDir: string,
  sessionId: string,
  agentDockerUrl: string,
): string | undefined {
  if (!socketsDir || !agentDockerUrl.startsWith('unix://') || !WIRE_ID.test(sessionId))
    return undefined;
  return path.join(socketsDir, sessionId);
}
