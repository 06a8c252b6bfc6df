import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { screenAt } from './recording-decoder';
import { ChunkType } from './recording-file';
import { openRecordingWriter } from './recording-writer';
import { keyframeUpdate, playbackHandshake } from './rfb-recording';

/** A FramebufferUpdate of one Raw rectangle filled with one colour (red, green, blue, 0). */
function rawUpdate(x: number, y: number, w: number, h: number, rgb: number[]) {
  const head = Buffer.alloc(16);
  head.writeUInt16BE(1, 2);
  head.writeUInt16BE(x, 4);
  head.writeUInt16BE(y, 6);
  head.writeUInt16BE(w, 8);
  head.writeUInt16BE(h, 10);
  const pixels = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) pixels.set(rgb, i * 4);
  return Buffer.concat([head, pixels]);
}

const pixel = (screen: { width: number; bgrx: Buffer }, x: number, y: number) => [
  ...screen.bgrx.subarray((y * screen.width + x) * 4, (y * screen.width + x) * 4 + 3),
];

describe('decoding a recording', () => {
  let dir: string;
  let file: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'recording-decoder-'));
    const name = path.join(dir, 'a.rec');
    const writer = await openRecordingWriter({
      file: name,
      key: null,
      onError: (error) => {
        throw error;
      },
      meta: {
        format: 1,
        kasmId: 'k',
        userId: null,
        username: '',
        imageId: null,
        startedAt: new Date(0).toISOString(),
        width: 8,
        height: 4,
        keystrokes: false,
        signed: false,
      },
    });
    const server = (at: number, payload: Buffer) =>
      writer.append({ type: ChunkType.server, at, payload });
    server(0, playbackHandshake(8, 4));
    server(10, rawUpdate(0, 0, 8, 4, [10, 20, 30]));
    server(1000, rawUpdate(0, 0, 2, 2, [200, 0, 0]));
    // A keyframe at 2 s: the whole screen as it stands then (red square, blue elsewhere).
    const screen = Buffer.alloc(8 * 4 * 4);
    for (let i = 0; i < 32; i++) screen.set([10, 20, 30], i * 4);
    for (const [x, y] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ])
      screen.set([200, 0, 0], (y * 8 + x) * 4);
    server(2000, rawUpdate(6, 2, 2, 2, [0, 200, 0]));
    for (const [x, y] of [
      [6, 2],
      [7, 2],
      [6, 3],
      [7, 3],
    ])
      screen.set([0, 200, 0], (y * 8 + x) * 4);
    writer.append({
      type: ChunkType.keyframe,
      at: 2000,
      payload: keyframeUpdate({ width: 8, height: 4, bgrx: screen }),
    });
    server(3000, rawUpdate(3, 1, 1, 1, [1, 2, 3]));
    await writer.close();
    file = await readFile(name);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('shows the screen at each time: from the start, and from the keyframe before it', async () => {
    expect(pixel(await screenAt(file, 500), 0, 0)).toEqual([10, 20, 30]);
    expect(pixel(await screenAt(file, 1500), 0, 0)).toEqual([200, 0, 0]);
    const atTwo = await screenAt(file, 2500);
    expect([pixel(atTwo, 1, 1), pixel(atTwo, 7, 3), pixel(atTwo, 3, 1)]).toEqual([
      [200, 0, 0],
      [0, 200, 0],
      [10, 20, 30],
    ]);
    expect(pixel(await screenAt(file, 3000), 3, 1)).toEqual([1, 2, 3]);
  });
});
