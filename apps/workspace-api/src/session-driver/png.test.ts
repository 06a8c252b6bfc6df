import { PNG } from 'pngjs';
import { encodePng } from './png';

describe('encodePng', () => {
  it('encodes a blue-green-red-unused screen as an RGB PNG that a decoder reads back exactly', async () => {
    const width = 37;
    const height = 23;
    const bgrx = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      bgrx[i * 4] = (i * 7) & 0xff; // blue
      bgrx[i * 4 + 1] = (i * 13) & 0xff; // green
      bgrx[i * 4 + 2] = (i * 31) & 0xff; // red
      bgrx[i * 4 + 3] = 0x55; // unused
    }
    const decoded = PNG.sync.read(await encodePng({ width, height, bgrx }));
    expect([decoded.width, decoded.height]).toEqual([width, height]);
    for (let i = 0; i < width * height; i++) {
      expect([...decoded.data.subarray(i * 4, i * 4 + 4)]).toEqual([
        (i * 31) & 0xff,
        (i * 13) & 0xff,
        (i * 7) & 0xff,
        255,
      ]);
    }
  });

  it('encodes a region of the screen only', async () => {
    const width = 10;
    const bgrx = Buffer.alloc(width * 8 * 4);
    for (let i = 0; i < width * 8; i++) bgrx[i * 4 + 2] = i; // red: the pixel's index
    const decoded = PNG.sync.read(
      await encodePng({ width, height: 8, bgrx }, { x: 3, y: 2, width: 4, height: 5 }),
    );
    expect([decoded.width, decoded.height]).toEqual([4, 5]);
    const reds = Array.from({ length: 20 }, (_, i) => decoded.data[i * 4]);
    expect(reds).toEqual([2, 3, 4, 5, 6].flatMap((y) => [3, 4, 5, 6].map((x) => y * width + x)));
  });
});
