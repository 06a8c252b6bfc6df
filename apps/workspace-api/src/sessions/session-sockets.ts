import { toUuid } from '@platform/schemas';

/** How often open WebSockets' admissions are checked again (the admission cache is 1 s). */
export const SOCKET_RECHECK_MS = 1000;

/** The connection under a proxied WebSocket: ending it ends both legs of the proxy. */
export interface ClosableSocket {
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

interface Tracked {
  kasmId: string;
  /** Whether the socket's browser is still admitted (grant alive, session running). */
  stillAdmitted: () => Promise<boolean>;
}

/**
 * The proxied WebSockets open in this process. A session stopped here closes its sockets at
 * once; every `intervalMs` each socket's admission is checked again, so a grant that expired
 * or a session destroyed on another replica closes them there too (within the check's interval
 * plus the admission cache's second).
 */
export function createSessionSockets(options: { intervalMs: number }) {
  const open = new Map<ClosableSocket, Tracked>();
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
    track(socket: ClosableSocket, rawKasmId: string, stillAdmitted: () => Promise<boolean>): void {
      open.set(socket, { kasmId: toUuid(rawKasmId), stillAdmitted });
      socket.once('close', () => {
        open.delete(socket);
        if (open.size === 0) clearInterval(timer);
      });
      if (open.size === 1) {
        timer = setInterval(() => void recheck(), options.intervalMs);
        timer.unref();
      }
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
