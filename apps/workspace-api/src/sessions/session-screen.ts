import jpeg from 'jpeg-js';
import {
  type DisplayEndpoint,
  type DisplayStream,
  openDisplayStream,
  pixelFormat32,
  ScreenUnreadableError,
  setEncodings,
  updateRequest,
} from './display-stream';
import type { SocketHop } from './socket-hop';

export interface Screen {
  width: number;
  height: number;
  /** RGBA, row by row. */
  rgba: Buffer;
}

const ENCODING_RAW = 0;

/**
 * Reads one whole screen from a session's VNC stream (display-stream.ts: the socket hop, else
 * TLS to the pinned certificate), in 32-bit true colour, raw encoding.
 */
export async function readScreen(
  endpoint: DisplayEndpoint,
  hop: { socketHop: SocketHop; kasmId: string } | null,
  timeoutMs: number,
): Promise<Screen> {
  const deadline = Date.now() + timeoutMs;
  const display = await openDisplayStream(endpoint, hop, timeoutMs);
  const timer = setTimeout(
    () =>
      display.reader.fail(
        new ScreenUnreadableError(`The display did not answer within ${timeoutMs / 1000} s`),
      ),
    Math.max(0, deadline - Date.now()),
  );
  try {
    return await readWholeScreen(display);
  } finally {
    clearTimeout(timer);
    display.close();
  }
}

async function readWholeScreen({ ws, reader, width, height }: DisplayStream): Promise<Screen> {
  ws.send(pixelFormat32());
  ws.send(setEncodings([ENCODING_RAW]));
  ws.send(updateRequest(false, width, height));

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
      if (x + w > width || y + h > height)
        throw new ScreenUnreadableError('The VNC server sent a rectangle off its screen');
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
