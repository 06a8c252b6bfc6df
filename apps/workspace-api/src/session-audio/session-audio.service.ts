import type { FastifyRequest } from 'fastify';
import {
  ProxyOriginRejectedError,
  ProxySocketLimitError,
  SessionAudioRefusedError,
} from '../errors';
import { originMatchesHost, type RunningSessions, type SocketHold } from '../session-proxy';
import { startCapture } from './audio-capture';
import { streamCapture } from './audio-socket';

export interface SessionAudioDeps {
  running: RunningSessions;
  /** Whether the workspace plays its sound in the browser; null: no such workspace. */
  audioAllowedOf: (imageId: string) => Promise<boolean | null>;
  holdSocket: SocketHold;
}

export type Channels = 1 | 2;

/**
 * A running session's desktop sound, for the holder of its grant: PulseAudio's recorder run in
 * its container through the engine (no server in the image, no port), its bytes sent over a
 * WebSocket on the sessions origin. The workspace's allow_kasm_audio is read at each request.
 */
export function createSessionAudioService({
  running,
  audioAllowedOf,
  holdSocket,
}: SessionAudioDeps) {
  async function capture(request: FastifyRequest, rawId: string, channels: Channels) {
    const session = await running(request, rawId);
    if ((await audioAllowedOf(session.imageId)) !== true) throw new SessionAudioRefusedError();
    return { session, capture: await startCapture(session.engine, session.containerId, channels) };
  }

  return {
    /** Whether sound can be played now: the checks of a WebSocket, and a capture begun and ended. */
    async probe(request: FastifyRequest, rawId: string, channels: Channels) {
      await (await capture(request, rawId, channels)).capture.output.stop();
    },

    /**
     * Opens the sound's WebSocket on the request's connection, once the request is admitted, its
     * page on the session's host, the workspace allows it and the capture began; throws before
     * anything is written otherwise. `hijack` hands the connection over from Fastify.
     */
    async open(request: FastifyRequest, rawId: string, channels: Channels, hijack: () => void) {
      if (!originMatchesHost(request.headers.origin, request.host))
        throw new ProxyOriginRejectedError();
      const { session, capture: started } = await capture(request, rawId, channels);
      // Turned off while it plays, the workspace's sound stops within the sockets' recheck.
      const allowed = async () => (await audioAllowedOf(session.imageId)) === true;
      if (!holdSocket(request, session.kasmId, request.raw.socket, allowed)) {
        await started.output.stop();
        throw new ProxySocketLimitError();
      }
      hijack();
      streamCapture(request.raw, started, channels);
    },
  };
}
export type SessionAudioService = ReturnType<typeof createSessionAudioService>;
