import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { demultiplexed } from './docker-demux';

/** One frame of the engine's multiplexed stream: type, three zero bytes, length, payload. */
const frame = (type: number, payload: Buffer) => {
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('demultiplexed', () => {
  it('gives stdout whole and keeps stderr apart, however the frames are cut', async () => {
    const out = [randomBytes(70_000), randomBytes(3), randomBytes(0), randomBytes(40_000)];
    const wire = Buffer.concat([
      frame(1, out[0]),
      frame(2, Buffer.from('warning: ')),
      frame(1, out[1]),
      frame(1, out[2]),
      frame(2, Buffer.from('disk slow')),
      frame(1, out[3]),
    ]);
    for (const cut of [1, 5, 8, 9, 4096, wire.length]) {
      const connection = new PassThrough();
      const { stdout, stderr } = demultiplexed(connection);
      const read = readAll(stdout);
      for (let at = 0; at < wire.length; at += cut) connection.write(wire.subarray(at, at + cut));
      connection.end();
      expect((await read).equals(Buffer.concat(out))).toBe(true);
      expect(stderr()).toBe('warning: disk slow');
    }
  });

  it('stops reading the connection while stdout is not read, and goes on when it is', async () => {
    const connection = new PassThrough();
    const { stdout } = demultiplexed(connection);
    const chunk = frame(1, randomBytes(64 * 1024));
    for (let i = 0; i < 64; i++) connection.write(chunk);
    connection.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(connection.isPaused()).toBe(true);
    expect(stdout.readableLength).toBeLessThan(256 * 1024);
    expect((await readAll(stdout)).length).toBe(64 * 64 * 1024);
  });

  it('cuts the connection when stdout is destroyed', () => {
    const connection = new PassThrough();
    const { stdout } = demultiplexed(connection);
    stdout.destroy();
    expect(connection.destroyed).toBe(true);
  });
});
