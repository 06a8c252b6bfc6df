import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const FILTER_UP = 2;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A PNG (8-bit RGB) of a region (the whole screen by default) of a screen held as the VNC stream sends it: 4 bytes a pixel, blue, green,
 * red, unused. Each row is filtered by the one above ("Up"): a desktop's rows mostly repeat, so
 * they become zeros, and zlib's fastest level then packs a screen in a few milliseconds, on
 * libuv's threads rather than the event loop.
 */
export async function encodePng(
  screen: { width: number; height: number; bgrx: Buffer },
  region: Region = { x: 0, y: 0, width: screen.width, height: screen.height },
): Promise<Buffer> {
  const { width, height } = region;
  const { bgrx } = screen;
  const stride = width * 3 + 1;
  const raw = Buffer.allocUnsafe(stride * height);
  const rowBytes = screen.width * 4;
  // One pass: each byte is the pixel's colour less the one above it (0 on the first row).
  for (let y = 0; y < height; y++) {
    let i = ((region.y + y) * screen.width + region.x) * 4;
    const up = y === 0 ? 0 : rowBytes;
    let o = y * stride;
    raw[o++] = FILTER_UP;
    for (let x = 0; x < width; x++, i += 4) {
      raw[o++] = (bgrx[i + 2] - (up && bgrx[i + 2 - up])) & 0xff;
      raw[o++] = (bgrx[i + 1] - (up && bgrx[i + 1 - up])) & 0xff;
      raw[o++] = (bgrx[i] - (up && bgrx[i - up])) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filtering, no interlace
  const data = await deflateAsync(raw, { level: 1 });
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', data),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
