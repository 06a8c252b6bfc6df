import jpeg from 'jpeg-js';
import WebSocket from 'ws';
import { connectPinned } from './pinned-tls';

/** Why a screen could not be read: the workspace has no VNC stream, or it failed midway. */
export class ScreenUnreadableError extends Error {
  override name = 'ScreenUnreadableError';
}

export interface Screen {
  width: number;
  height: number;
  /** RGBA, row by row. */
  rgba: Buffer;
}

const SECURITY_NONE = 1;
const ENCODING_RAW = 0;
/** Where Kasm images (and ours) serve the VNC stream, beside noVNC. */
const STREAM_PATH = '/websockify';

/** Bytes arriving on a WebSocket, read as a stream of exact lengths. */
function byteReader() {
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

/**
 * Reads one whole screen from a session's VNC stream, as noVNC would reach it: a WebSocket at
 * /websockify behind the container's Basic credentials, RFB 3.8 with security None (the images'
 * Xvnc listens on localhost only), 32-bit true colour, raw encoding.
 */
export async function readScreen(
  { origin, authorization, pin }: { origin: string; authorization: string; pin: string | null },
  timeoutMs: number,
): Promise<Screen> {
  const url = new URL(`${origin.replace(/^http/, 'ws')}${STREAM_PATH}`);
  // Over TLS, the password goes only to the session's pinned certificate, as from the proxy.
  const pinned =
    url.protocol === 'wss:'
      ? await connectPinned(url.hostname, Number(url.port), pin).catch((error: Error) => {
          throw new ScreenUnreadableError(`The display could not be reached: ${error.message}`);
        })
      : undefined;
  const ws = new WebSocket(url, {
    headers: { authorization },
    perMessageDeflate: false,
    handshakeTimeout: timeoutMs,
    ...(pinned ? { createConnection: () => pinned } : {}),
  });
  const reader = byteReader();
  const timer = setTimeout(
    () =>
      reader.fail(
        new ScreenUnreadableError(`The display did not answer within ${timeoutMs / 1000} s`),
      ),
    timeoutMs,
  );
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
    return await handshakeAndRead(ws, reader);
  } finally {
    clearTimeout(timer);
    ws.terminate();
  }
}

async function handshakeAndRead(
  ws: WebSocket,
  reader: ReturnType<typeof byteReader>,
): Promise<Screen> {
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
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  await reader.read(init.readUInt32BE(20)); // the desktop's name

  // 32 bits a pixel, little-endian, true colour: blue, green, red, unused in memory.
  const format = Buffer.alloc(20);
  format.set([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0], 4);
  ws.send(format);
  const encodings = Buffer.alloc(8);
  encodings.writeUInt8(2, 0);
  encodings.writeUInt16BE(1, 2);
  encodings.writeInt32BE(ENCODING_RAW, 4);
  ws.send(encodings);
  const request = Buffer.alloc(10);
  request.writeUInt8(3, 0);
  request.writeUInt16BE(width, 6);
  request.writeUInt16BE(height, 8);
  ws.send(request);

  const rgba = Buffer.alloc(width * height * 4, 0xff);
  for (;;) {
    const type = (await reader.read(1))[0];
    if (type === 1) {
      await reader.read((await reader.read(5)).readUInt16BE(3) * 6); // colour map
      continue;
    }
    if (type === 3) {
      await reader.read((await reader.read(7)).readUInt32BE(3)); // cut text
      continue;
    }
    if (type === 2) continue; // bell
    if (type !== 0) throw new ScreenUnreadableError(`Unexpected VNC message ${type}`);
    const rects = (await reader.read(3)).readUInt16BE(1);
    for (let i = 0; i < rects; i++) {
      const rect = await reader.read(12);
      const [x, y, w, h] = [0, 2, 4, 6].map((at) => rect.readUInt16BE(at));
      if (rect.readInt32BE(8) !== ENCODING_RAW)
        throw new ScreenUnreadableError('The VNC server sent an encoding it was not asked for');
      const pixels = await reader.read(w * h * 4);
      for (let row = 0; row < h && y + row < height; row++) {
        for (let col = 0; col < w && x + col < width; col++) {
          const from = (row * w + col) * 4;
          const to = ((y + row) * width + x + col) * 4;
          rgba[to] = pixels[from + 2];
          rgba[to + 1] = pixels[from + 1];
          rgba[to + 2] = pixels[from];
        }
      }
    }
    return { width, height, rgba };
  }
}

/** The screen as a JPEG, scaled (nearest pixel) to `width` with its aspect kept when given. */
export function screenJpeg(screen: Screen, width?: number, quality = 80): Buffer {
  const outWidth = width ?? screen.width;
  const outHeight = Math.max(1, Math.round((screen.height * outWidth) / screen.width));
  let data = screen.rgba;
  if (outWidth !== screen.width) {
    data = Buffer.alloc(outWidth * outHeight * 4);
    for (let y = 0; y < outHeight; y++) {
      const sy = Math.min(screen.height - 1, Math.floor((y * screen.height) / outHeight));
      for (let x = 0; x < outWidth; x++) {
        const sx = Math.min(screen.width - 1, Math.floor((x * screen.width) / outWidth));
        screen.rgba.copy(
          data,
          (y * outWidth + x) * 4,
          (sy * screen.width + sx) * 4,
          (sy * screen.width + sx) * 4 + 4,
        );
      }
    }
  }
  return jpeg.encode({ data, width: outWidth, height: outHeight }, quality).data;
}
