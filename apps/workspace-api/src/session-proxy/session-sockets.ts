import { toUuid } from '@platform/schemas';

/** How often open WebSockets' admissions are checked again (the admission cache is 1 s). */
export const SOCKET_RECHECK_MS = 1000;

/** The connection under a proxied WebSocket: ending it ends both legs of the proxy. */
export interface ClosableSocket {
  readonly destroyed: boolean;
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
  /** Calls `listener` after `ms` without a byte read or written (Node's socket timeout). */
  setTimeout(ms: number, listener: () => void): unknown;
}

export interface SocketLimits {
  /** How often every open socket's admission is checked again. */
  intervalMs: number;
  /** Open sockets one grant may hold (SESSION_GRANT_MAX_WEBSOCKETS). */
  maxPerGrant: number;
  /** A socket with no traffic either way for this long is closed (SESSION_WEBSOCKET_IDLE_SECONDS). */
  idleMs: number;
}

interface Tracked {
  kasmId: string;
  grantId: string;
  /** Whether the socket's browser is still admitted (grant alive, session running). */
  stillAdmitted: () => Promise<boolean>;
}

/**
 * The proxied WebSockets open in this process. A session stopped here closes its sockets at
 * once; every `intervalMs` each socket's admission is checked again, so a grant that expired
 * or a session destroyed on another replica closes them there too (within the check's interval
 * plus the admission cache's second). A grant holds at most `maxPerGrant` of them, so that one
 * admitted browser cannot pile up connections to a container, and a silent one is closed.
 */
export function createSessionSockets(options: SocketLimits) {
  const open = new Map<ClosableSocket, Tracked>();
  const perGrant = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let checking = false;

  async function recheck(): Promise<void> {
    if (checking) return;
    checking = true;
    try {
      await Promise.all(
        [...open].map(async ([socket, tracked]) => {
          const admitted = await tracked.stillAdmitted().catch(() => false);
          if (!admitted) socket.destroy();
        }),
      );
    } finally {
      checking = false;
    }
  }

  return {
    /**
     * Keeps the socket of a grant's WebSocket, closing it when idle; false, keeping nothing,
     * when the grant holds its `maxPerGrant` already. Synchronous: the count cannot be raced.
     */
    track(
      socket: ClosableSocket,
      owner: { kasmId: string; grantId: string },
      stillAdmitted: () => Promise<boolean>,
    ): boolean {
      // Gone while it was being admitted: it will never close again, nor count.
      if (socket.destroyed) return true;
      const { grantId } = owner;
      const held = perGrant.get(grantId) ?? 0;
      if (held >= options.maxPerGrant) return false;
      perGrant.set(grantId, held + 1);
      open.set(socket, { kasmId: toUuid(owner.kasmId), grantId, stillAdmitted });
      socket.setTimeout(options.idleMs, () => socket.destroy());
      socket.once('close', () => {
        open.delete(socket);
        const left = (perGrant.get(grantId) ?? 1) - 1;
        if (left > 0) perGrant.set(grantId, left);
        else perGrant.delete(grantId);
        if (open.size === 0) clearInterval(timer);
      });
      if (open.size === 1) {
        timer = setInterval(() => void recheck(), options.intervalMs);
        timer.unref();
      }
      return true;
    },

    /** Closes every socket of the session (it is being stopped). */
    closeSession(rawKasmId: string): void {
      const kasmId = toUuid(rawKasmId);
      for (const [socket, tracked] of open) if (tracked.kasmId === kasmId) socket.destroy();
    },

    closeAll(): void {
      for (const socket of open.keys()) socket.destroy();
      clearInterval(timer);
    },
  };
}
export type SessionSockets = ReturnType<typeof createSessionSockets>;
