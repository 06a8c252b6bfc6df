import { Duplex, PassThrough } from 'node:stream';
import { forwardInBatches } from './stream-batches';

const KB = 1024;

/** A destination that records the bytes of each write it is given (a writev is one write). */
function recordingSink(options: { stalled?: boolean } = {}) {
  const writes: number[] = [];
  const received: Buffer[] = [];
  const keep = (chunks: Buffer[], done: () => void) => {
    writes.push(chunks.reduce((sum, c) => sum + c.length, 0));
    received.push(...chunks);
    if (!options.stalled) done();
  };
  // Nothing is ever read from it: its readable side only makes it the Duplex a socket is.
  const sink = new Duplex({
    read: () => undefined,
    write(chunk: Buffer, _encoding, done) {
      keep([chunk], done);
    },
    writev(chunks, done) {
      keep(
        chunks.map((c) => c.chunk as Buffer),
        done,
      );
    },
  });
  return { sink, writes, received };
}

const until = async (done: () => boolean) => {
  const limit = Date.now() + 10_000;
  while (!done() && Date.now() < limit) await new Promise((r) => setImmediate(r));
};

describe('forwardInBatches', () => {
  it('sends 16 KB records that arrive together as 64 KB writes, every byte in order', async () => {
    const source = new PassThrough();
    const { sink, writes, received } = recordingSink();
    forwardInBatches(source, sink);
    const records = Array.from({ length: 10 }, (_, i) => Buffer.alloc(16 * KB, i));
    for (const record of records) source.write(record);
    await until(() => received.length === records.length);
    expect(writes).toEqual([64 * KB, 64 * KB, 32 * KB]);
    expect(Buffer.concat(received).equals(Buffer.concat(records))).toBe(true);
  });

  it('sends a lone small update without waiting for more', async () => {
    const source = new PassThrough();
    const { sink, writes } = recordingSink();
    forwardInBatches(source, sink);
    source.write(Buffer.from('one key press'));
    await until(() => writes.length === 1);
    expect(writes).toEqual([13]);
  });

  it('stops reading the source while more than 1 MB waits for a slow destination', async () => {
    const source = new PassThrough({ highWaterMark: 16 * KB });
    const { sink } = recordingSink({ stalled: true });
    forwardInBatches(source, sink);
    for (let i = 0; i < 100; i++) source.write(Buffer.alloc(16 * KB));
    await until(() => source.isPaused());
    expect(source.isPaused()).toBe(true);
    expect(sink.writableLength).toBeLessThanOrEqual(1024 * KB + 16 * KB);
  });

  it('ends the destination when the source ends, after what it held', async () => {
    const source = new PassThrough();
    const { sink, received } = recordingSink();
    forwardInBatches(source, sink);
    source.end(Buffer.from('last words'));
    await until(() => sink.writableFinished);
    expect(sink.writableFinished).toBe(true);
    expect(Buffer.concat(received).toString()).toBe('last words');
  });
});
