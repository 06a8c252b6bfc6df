import type { Socket } from 'node:net';
import { toWireId } from '@platform/schemas';
import WebSocket from 'ws';
import { connectPinned } from './pinned-tls';
import type { Hop, SocketHop } from './socket-hop';

/** Why a session's display could not be read or driven: no VNC stream, or it failed midway. */
export class ScreenUnreadableError extends Error {
  override name = 'ScreenUnreadableError';
}

/** Where Kasm images (and ours) serve the VNC stream, beside noVNC. */
export const STREAM_PATH = '/websockify';
const SECURITY_NONE = 1;
/** The largest screen read (8K UHD): a container cannot make the service hold more of it. */
export const MAX_SCREEN_PIXELS = 7680 * 4320;

/** Bytes arriving on a WebSocket, read as a stream of exact lengths. */
export function byteReader() {
  const chunks: Buffer[] = [];
  let buffered = 0;
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const wakeUp = () => {
    const woken = wake;
    wake = null;
    woken?.();
  };
  return {
    push(chunk: Buffer) {
      chunks.push(chunk);
      buffered += chunk.length;
      wakeUp();
    },
    fail(error: Error) {
      failure ??= error;
      wakeUp();
    },
    get failure() {
      return failure;
    },
    async read(n: number): Promise<Buffer> {
      while (buffered < n) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      chunks.length = 0;
      if (all.length > n) chunks.push(all.subarray(n));
      buffered -= n;
      return all.subarray(0, n);
    },
  };
}
export type ByteReader = ReturnType<typeof byteReader>;

/** A session's VNC stream after the RFB handshake, shared with the user's own viewer. */
export interface DisplayStream {
  /** Which way it reached the container. */
  hop: Hop;
  ws: WebSocket;
  reader: ByteReader;
  width: number;
  height: number;
  close(): void;
}

export interface DisplayEndpoint {
  origin: string;
  authorization: string;
  pin: string | null;
}

/**
 * Opens a session's VNC stream as noVNC reaches it through the proxy: on the socket hop when its
 * folder holds a socket (plain), else a WebSocket to the container's /websockify over TLS to its
 * pinned certificate; behind the container's Basic credentials either way. Then RFB 3.8 with
 * security None (the images' Xvnc listens on localhost only) and a shared ClientInit, so the
 * user's own viewer stays connected. `timeoutMs` bounds the whole opening.
 */
export async function openDisplayStream(
  endpoint: DisplayEndpoint,
  hop: { socketHop: SocketHop; kasmId: string } | null,
  timeoutMs: number,
): Promise<DisplayStream> {
  const wireId = hop && toWireId(hop.kasmId);
  const onSocket = hop && wireId ? await hop.socketHop.hasSocket(wireId) : false;
  const socket: Socket | undefined =
    onSocket && hop && wireId
      ? await hop.socketHop.connect(wireId).catch(() => undefined)
      : undefined;
  const url = socket
    ? new URL(`ws://${wireId}.session-socket.invalid${STREAM_PATH}`)
    : new URL(`${endpoint.origin.replace(/^http/, 'ws')}${STREAM_PATH}`);
  // Over TLS, the password goes only to the session's pinned certificate, as from the proxy.
  const connection =
    socket ??
    (url.protocol === 'wss:'
      ? await connectPinned(url.hostname, Number(url.port), endpoint.pin).catch((error: Error) => {
          throw new ScreenUnreadableError(`The display could not be reached: ${error.message}`);
        })
      : undefined);
  const ws = new WebSocket(url, {
    headers: { authorization: endpoint.authorization },
    perMessageDeflate: false,
    handshakeTimeout: timeoutMs,
    ...(connection ? { createConnection: () => connection } : {}),
  });
  const reader = byteReader();
  const timer = setTimeout(
    () =>
      reader.fail(
        new ScreenUnreadableError(`The display did not answer within ${timeoutMs / 1000} s`),
      ),
    timeoutMs,
  );
  ws.binaryType = 'nodebuffer';
  ws.on('message', (data: Buffer) => reader.push(data));
  ws.on('close', () => reader.fail(new ScreenUnreadableError('The display closed its stream')));
  ws.on('error', () => reader.fail(new ScreenUnreadableError('The display could not be reached')));
  ws.on('unexpected-response', (_request, response) => {
    response.resume();
    reader.fail(
      new ScreenUnreadableError(
        `The workspace serves no VNC stream at ${STREAM_PATH} (HTTP ${response.statusCode})`,
      ),
    );
  });
  try {
    // The server speaks first, once the WebSocket is open: its version is the first read.
    const { width, height } = await handshake(ws, reader);
    const hopTaken: Hop = socket ? 'socket' : 'tls';
    return { hop: hopTaken, ws, reader, width, height, close: () => ws.terminate() };
  } catch (error) {
    ws.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function handshake(ws: WebSocket, reader: ByteReader) {
  const version = (await reader.read(12)).toString('latin1');
  if (!version.startsWith('RFB 003.'))
    throw new ScreenUnreadableError(`The workspace's ${STREAM_PATH} is not a VNC stream`);
  ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
  const count = (await reader.read(1))[0];
  if (count === 0) throw new ScreenUnreadableError('The VNC server refused the connection');
  if (!(await reader.read(count)).includes(SECURITY_NONE))
    throw new ScreenUnreadableError('The VNC server wants a password of its own');
  ws.send(Buffer.from([SECURITY_NONE]));
  if ((await reader.read(4)).readUInt32BE(0) !== 0)
    throw new ScreenUnreadableError('The VNC server refused the connection');
  ws.send(Buffer.from([1])); // shared: the user's own viewer stays connected
  const init = await reader.read(24);
  await reader.read(init.readUInt32BE(20)); // the desktop's name
  const screen = { width: init.readUInt16BE(0), height: init.readUInt16BE(2) };
  if (screen.width * screen.height > MAX_SCREEN_PIXELS)
    throw new ScreenUnreadableError(`The display is larger than ${MAX_SCREEN_PIXELS} pixels`);
  return screen;
}

/** SetPixelFormat: 32 bits a pixel, little-endian, true colour (blue, green, red, unused in memory). */
export function pixelFormat32(): Buffer {
  const format = Buffer.alloc(20);
  format.set([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0], 4);
  return format;
}

/** SetEncodings with `encodings` in order of preference. */
export function setEncodings(encodings: number[]): Buffer {
  const message = Buffer.alloc(4 + 4 * encodings.length);
  message.writeUInt8(2, 0);
  message.writeUInt16BE(encodings.length, 2);
  encodings.forEach((encoding, i) => message.writeInt32BE(encoding, 4 + 4 * i));
  return message;
}

/** FramebufferUpdateRequest for a region (the whole screen by default). */
export function updateRequest(incremental: boolean, width: number, height: number, x = 0, y = 0) {
  const request = Buffer.alloc(10);
  request.writeUInt8(3, 0);
  request.writeUInt8(incremental ? 1 : 0, 1);
  request.writeUInt16BE(x, 2);
  request.writeUInt16BE(y, 4);
  request.writeUInt16BE(width, 6);
  request.writeUInt16BE(height, 8);
  return request;
}
