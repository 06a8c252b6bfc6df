import { toUuid } from '@platform/schemas';
import type { Referee, StreamRole } from './rfb-referee';
import type { ClosableSocket } from './session-sockets';

/**
 * The joiners' and watchers' streams open in this process, by grant: the owner's change of a
 * role reaches the referee of every stream of the grant at once (no reconnect), and a removed
 * joiner's or revoked link's streams close at once. Other replicas follow within their socket
 * check (a second) plus the admission cache's second.
 */
export function createJoinerStreams() {
  const open = new Map<string, Set<{ socket: ClosableSocket; referee: Referee }>>();
  return {
    enter(rawGrantId: string, socket: ClosableSocket, referee: Referee): void {
      const grantId = toUuid(rawGrantId);
      const streams = open.get(grantId) ?? new Set();
      const entry = { socket, referee };
      streams.add(entry);
      open.set(grantId, streams);
      socket.once('close', () => {
        streams.delete(entry);
        if (streams.size === 0 && open.get(grantId) === streams) open.delete(grantId);
      });
    },

    setRole(grantId: string, role: StreamRole): void {
      for (const { referee } of open.get(toUuid(grantId)) ?? []) referee.role = role;
    },

    close(grantIds: Iterable<string>): void {
      for (const grantId of grantIds)
        for (const { socket } of open.get(toUuid(grantId)) ?? []) socket.destroy();
    },
  };
}
export type JoinerStreams = ReturnType<typeof createJoinerStreams>;
