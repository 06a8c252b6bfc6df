import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { KeyGrant } from '../api-keys';
import { KasmNoDisplayError } from '../errors';
import {
  type Hop,
  type ReachedDisplay,
  ScreenUnreadableError,
  type SessionDisplays,
} from '../sessions';
import { frameRegion, inputMessages } from './input-actions';
import { encodePng } from './png';
import { type RfbClient, startRfbClient } from './rfb-client';
import type { FrameBody, InputAction } from './session-driver.schemas';

/** How long opening a display and reading its first screen may take: well under a second here. */
const OPEN_TIMEOUT_MS = 10_000;
/** A connection no call used for this long is closed: a program's loop keeps it, a finished one frees it. */
export const DRIVER_IDLE_MS = 30_000;

/** A connection to a session's display, and where the input sent on it is recorded (or null). */
interface Connection {
  client: RfbClient;
  record: ((message: Buffer) => void) | null;
}

interface Held {
  address: string;
  connection: Promise<Connection>;
  idle?: NodeJS.Timeout;
}

export interface SessionDriverDeps {
  displays: SessionDisplays;
  /** Told of each connection opened to a display, by hop (metrics). */
  onConnection?: (hop: Hop) => void;
  /**
   * Before a connection is opened: records the session where its policy says so (throwing when a
   * recording that must be made cannot be), as a viewer's stream is; answers where input goes.
   */
  record?: (display: ReachedDisplay) => Promise<((message: Buffer) => void) | null>;
  idleMs?: number;
}

/**
 * Drives running sessions for programs: input (pointer, keys, text) and the screen as PNG,
 * through one VNC connection per session held by this process while calls keep coming (closed
 * after `idleMs` without one, and at once when the session's access ends: stopped, destroyed,
 * its user locked). Every call is checked as any session operation (sessions' displays.reach).
 * A session its policy records is recorded before its connection opens, with the input sent.
 */
export function createSessionDriver(deps: SessionDriverDeps) {
  const idleMs = deps.idleMs ?? DRIVER_IDLE_MS;
  const held = new Map<string, Held>();

  function drop(kasmId: string, entry?: Held): void {
    const current = held.get(kasmId);
    if (!current || (entry && current !== entry)) return;
    held.delete(kasmId);
    clearTimeout(current.idle);
    void current.connection.then(
      ({ client }) => client.close(),
      () => undefined,
    );
  }

  async function open(display: ReachedDisplay, onEnd: () => void): Promise<Connection> {
    const record = (await deps.record?.(display)) ?? null;
    const stream = await display.open(OPEN_TIMEOUT_MS);
    deps.onConnection?.(stream.hop);
    const client = startRfbClient(stream, onEnd);
    // A server that takes the handshake but sends no screen must not hold the call.
    const timer = setTimeout(() => stream.close(), OPEN_TIMEOUT_MS);
    try {
      await client.ready();
    } finally {
      clearTimeout(timer);
    }
    return { client, record };
  }

  /** The session's connection, reused while its display stays where it was. */
  async function connectionTo(display: ReachedDisplay): Promise<Connection> {
    const { kasmId } = display;
    let current = held.get(kasmId);
    if (current && current.address !== display.address) drop(kasmId);
    current = held.get(kasmId);
    if (!current) {
      const fresh: Held = {
        address: display.address,
        connection: Promise.resolve(null as never),
      };
      fresh.connection = open(display, () => drop(kasmId, fresh));
      fresh.connection.catch(() => drop(kasmId, fresh));
      held.set(kasmId, fresh);
      current = fresh;
    }
    const kept = current;
    clearTimeout(kept.idle);
    kept.idle = setTimeout(() => drop(kasmId, kept), idleMs);
    kept.idle.unref();
    try {
      const connection = await kept.connection;
      if (connection.client.ended) throw new ScreenUnreadableError('The display closed its stream');
      return connection;
    } catch (error) {
      drop(kasmId, kept);
      if (error instanceof ScreenUnreadableError) throw new KasmNoDisplayError(error.message);
      throw error;
    }
  }

  const reach = (request: DriverRequest) =>
    deps.displays.reach(request.kasm_id, request.user_id, request.grantor);

  return {
    /** send_kasm_input: the actions, in order, once all of them are valid on the session's screen. */
    async input(
      request: DriverRequest,
      actions: InputAction[],
    ): Promise<{ width: number; height: number }> {
      const display = await reach(request);
      const { client, record } = await connectionTo(display);
      const built = inputMessages(actions, client);
      if ('problems' in built)
        throw withFieldErrors(new ValidationFailedError('The request is invalid'), built.problems);
      await client.send(Buffer.concat(built.messages)).catch((error: Error) => {
        drop(display.kasmId);
        throw new KasmNoDisplayError(error.message);
      });
      // Recorded as a viewer's input is (keys only where the policy allows), once it was sent.
      if (record) for (const message of built.messages) record(message);
      return { width: client.width, height: client.height };
    },

    /** get_kasm_frame: the screen (or a region of it) as the stream last drew it, as a PNG. */
    async frame(request: DriverRequest & { region?: FrameBody['region'] }): Promise<Buffer> {
      const display = await reach(request);
      const { client } = await connectionTo(display);
      // An update the server stopped sending halfway must not hold the call.
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ScreenUnreadableError('The display stopped in the middle of an update')),
          OPEN_TIMEOUT_MS,
        );
      });
      const screen = await Promise.race([client.frame(), stalled])
        .catch((error: Error) => {
          drop(display.kasmId);
          throw new KasmNoDisplayError(error.message);
        })
        .finally(() => clearTimeout(timer));
      const asked = frameRegion(request.region, screen);
      if ('problems' in asked)
        throw withFieldErrors(new ValidationFailedError('The request is invalid'), asked.problems);
      return encodePng(screen, asked.region);
    },

    /** Closes the session's connection (its access ended). */
    end: (kasmId: string) => drop(toUuid(kasmId)),

    closeAll(): void {
      for (const kasmId of [...held.keys()]) drop(kasmId);
    },
  };
}
export type SessionDriver = ReturnType<typeof createSessionDriver>;

/** Which session a call drives, and who asks (their key, for acting as the session's user). */
export interface DriverRequest {
  kasm_id: string;
  user_id?: string;
  grantor: KeyGrant | undefined;
}
