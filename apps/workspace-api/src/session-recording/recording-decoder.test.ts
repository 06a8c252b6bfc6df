import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COLOURS, syntheticRecording } from '../../test/recording-factories';
import { screenAt } from './recording-decoder';

const pixel = (screen: { width: number; bgrx: Buffer }, x: number, y: number) => [
  ...screen.bgrx.subarray((y * screen.width + x) * 4, (y * screen.width + x) * 4 + 3),
];

describe('decoding a recording', () => {
  let dir: string;
  let file: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'recording-decoder-'));
    file = await readFile((await syntheticRecording(dir)).file);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('shows the screen at each time, played from the start or from the keyframe before it', async () => {
    for (const [second, colour] of COLOURS.entries()) {
      const screen = await screenAt(file, second * 1000 + 500);
      expect([second, pixel(screen, 5, 5), pixel(screen, 63, 31)]).toEqual([
        second,
        colour,
        colour,
      ]);
    }
  });
});
