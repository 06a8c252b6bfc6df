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
  const row = Buffer.alloc(width * 3);
  const above = Buffer.alloc(width * 3);
  for (let y = 0; y < height; y++) {
    const from = ((region.y + y) * screen.width + region.x) * 4;
    for (let x = 0, i = from, o = 0; x < width; x++, i += 4, o += 3) {
      row[o] = bgrx[i + 2];
      row[o + 1] = bgrx[i + 1];
      row[o + 2] = bgrx[i];
    }
    const at = y * stride;
    raw[at] = FILTER_UP;
    for (let o = 0; o < row.length; o++) raw[at + 1 + o] = (row[o] - above[o]) & 0xff;
    row.copy(above);
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
