import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { AUDIO_FORMAT, AUDIO_RATE, frameAligner, type AudioCapture } from './audio-capture';

// The browser only listens; what it may send is small and ignored.
const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 });
const NOTHING = Buffer.alloc(0);
/**
 * Past this much sound not yet sent (about a quarter of a second of stereo), new sound is
 * dropped: a slow link hears a gap rather than a delay that grows.
 */
const MAX_UNSENT_BYTES = 48_000;
export const AUDIO_ENDED = 'SESSION_AUDIO_ENDED';

/** What the first (text) message tells the page: the format of every binary message after it. */
export const formatMessage = (channels: number) =>
  JSON.stringify({ format: AUDIO_FORMAT, rate: AUDIO_RATE, channels });

/**
 * Completes the WebSocket handshake on the request's connection (the route has hijacked it) and
 * sends the capture's sound as binary messages of whole frames, after a text message naming
 * their format. The capture is stopped, in the container too, the moment the connection closes,
 * whoever closes it (the page, the grant's end, the service); a capture that ends closes it.
 */
export function streamCapture(request: IncomingMessage, capture: AudioCapture, channels: number) {
  const connection = request.socket;
  const stop = () => void capture.output.stop();
  connection.once('close', stop);
  if (connection.destroyed) return stop();
  sockets.handleUpgrade(request, connection, NOTHING, (ws: WebSocket) => {
    const align = frameAligner(capture.frameBytes);
    const send = (chunk: Buffer) => {
      const frames = align(chunk);
      if (frames.length > 0 && ws.bufferedAmount <= MAX_UNSENT_BYTES) ws.send(frames);
    };
    ws.send(formatMessage(channels));
    send(capture.first);
    capture.output.stdout.on('data', send).once('end', () => ws.close(1011, AUDIO_ENDED));
    capture.output.stdout.resume();
    ws.once('close', stop).on('error', () => ws.terminate());
  });
}
