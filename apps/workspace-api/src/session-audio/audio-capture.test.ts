import { frameAligner } from './audio-capture';

describe('frameAligner', () => {
  it('passes whole frames and keeps a cut frame for the next chunk', () => {
    const align = frameAligner(4);
    expect([...align(Buffer.from([1, 2, 3, 4, 5, 6]))]).toEqual([1, 2, 3, 4]);
    expect([...align(Buffer.from([7]))]).toEqual([]);
    expect([...align(Buffer.from([8, 9, 10, 11, 12]))]).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('keeps no bytes of a chunk that is all whole frames, and works on mono (2 bytes)', () => {
    const align = frameAligner(2);
    expect(align(Buffer.from([1, 2, 3, 4])).length).toBe(4);
    expect([...align(Buffer.from([5, 6]))]).toEqual([5, 6]);
  });

  it('does not hold on to the buffer it was given', () => {
    const align = frameAligner(4);
    const chunk = Buffer.from([1, 2, 3, 4, 5]);
    align(chunk);
    chunk[4] = 99;
    expect([...align(Buffer.from([6, 7, 8]))]).toEqual([5, 6, 7, 8]);
  });
});
