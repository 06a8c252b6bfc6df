import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { waitFor } from '@platform/testing';
import { byteReader, type DisplayStream } from '../sessions';
import { startRfbClient } from './rfb-client';

// The client against a real WebSocket server that plays a VNC server's part after the handshake:
// it answers each update request with the rectangles a test hands it, and records what the
// client sent.

interface FakeServer {
  /** The next FramebufferUpdate's rectangles, sent when the client asks. */
  queue: Buffer[];
  /** Every message the client sent, as received. */
  received: Buffer[];
  display: DisplayStream;
  close(): Promise<void>;
}

const rect = (
  x: number,
  y: number,
  w: number,
  h: number,
  encoding: number,
  body = Buffer.alloc(0),
) => {
  const head = Buffer.alloc(12);
  [x, y, w, h].forEach((v, i) => head.writeUInt16BE(v, i * 2));
  head.writeInt32BE(encoding, 8);
  return Buffer.concat([head, body]);
};
const update = (...rects: Buffer[]) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(rects.length, 2);
  return Buffer.concat([head, ...rects]);
};
/** Raw pixels, each given as its blue byte (the rest zero). */
const raw = (blues: number[]) => Buffer.concat(blues.map((b) => Buffer.from([b, 0, 0, 0])));

async function fakeServer(width: number, height: number): Promise<FakeServer> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const queue: Buffer[] = [];
  const received: Buffer[] = [];
  server.on('connection', (socket) =>
    socket.on('message', (data: Buffer) => {
      received.push(data);
      const next = data[0] === 3 ? queue.shift() : undefined;
      if (next) socket.send(next);
    }),
  );
  const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise((resolve) => ws.once('open', resolve));
  const reader = byteReader();
  ws.on('message', (data: Buffer) => reader.push(data));
  ws.on('close', () => reader.fail(new Error('closed')));
  const display = { hop: 'tls' as const, ws, reader, width, height, close: () => ws.terminate() };
  return {
    queue,
    received,
    display,
    close: async () => {
      ws.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const blues = (bgrx: Buffer) => Array.from({ length: bgrx.length / 4 }, (_, i) => bgrx[i * 4]);

describe('the RFB client', () => {
  let server: FakeServer | undefined;
  afterEach(() => server?.close());

  it('asks for the whole screen, then keeps one incremental request pending', async () => {
    server = await fakeServer(2, 2);
    server.queue.push(update(rect(0, 0, 2, 2, 0, raw([1, 2, 3, 4]))));
    const client = startRfbClient(server.display, () => undefined);
    expect(blues((await client.frame()).bgrx)).toEqual([1, 2, 3, 4]);
    // Non-incremental, then incremental once the screen was read.
    await waitFor(async () => {
      const requests = server?.received.filter((m) => m[0] === 3) ?? [];
      expect(requests.map((m) => m[1])).toEqual([0, 1]);
    }, 5000);
    const encodings = server.received.find((m) => m[0] === 2);
    expect([0, 1, 2].map((i) => encodings?.readInt32BE(4 + 4 * i))).toEqual([1, 0, -223]);
  });

  it('applies raw rectangles and CopyRect moves, overlapping ones included', async () => {
    server = await fakeServer(3, 2);
    server.queue.push(update(rect(0, 0, 3, 2, 0, raw([1, 2, 3, 4, 5, 6]))));
    // Copy the top row's first two pixels one to the right (source and target overlap), then
    // a raw pixel at the bottom right.
    const source = Buffer.alloc(4);
    source.writeUInt16BE(0, 0);
    source.writeUInt16BE(0, 2);
    server.queue.push(update(rect(1, 0, 2, 1, 1, source), rect(2, 1, 1, 1, 0, raw([9]))));
    const client = startRfbClient(server.display, () => undefined);
    await client.ready();
    // The second update answers the incremental request the first one's end sent.
    await waitFor(async () => {
      expect(blues((await client.frame()).bgrx)).toEqual([1, 1, 2, 4, 5, 9]);
    }, 5000);
  });

  it('follows a new desktop size and asks for its whole screen', async () => {
    server = await fakeServer(2, 1);
    server.queue.push(update(rect(0, 0, 2, 1, 0, raw([1, 2]))));
    server.queue.push(update(rect(0, 0, 3, 1, -223)));
    server.queue.push(update(rect(0, 0, 3, 1, 0, raw([7, 8, 9]))));
    const client = startRfbClient(server.display, () => undefined);
    await client.ready();
    await waitFor(async () => {
      const frame = await client.frame();
      expect([frame.width, frame.height, blues(frame.bgrx)]).toEqual([3, 1, [7, 8, 9]]);
    }, 5000);
    const afterResize = server.received.filter((m) => m[0] === 3)[2];
    expect([afterResize[1], afterResize.readUInt16BE(6)]).toEqual([0, 3]);
  });

  it('ends on a rectangle off the screen, without reading its pixels', async () => {
    server = await fakeServer(2, 2);
    server.queue.push(update(rect(1, 1, 4000, 4000, 0)));
    const ended: Error[] = [];
    const client = startRfbClient(server.display, (error) => ended.push(error));
    await expect(client.frame()).rejects.toThrow('The VNC server sent a rectangle off its screen');
    expect(ended).toHaveLength(1);
    expect(client.ended).toBe(true);
  });

  it('sends input as it is given, in one message', async () => {
    server = await fakeServer(1, 1);
    server.queue.push(update(rect(0, 0, 1, 1, 0, raw([0]))));
    const client = startRfbClient(server.display, () => undefined);
    await client.ready();
    await client.send(Buffer.from([5, 1, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0]));
    await waitFor(async () => {
      expect(server?.received.filter((m) => m[0] === 5)).toEqual([
        Buffer.from([5, 1, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0]),
      ]);
    }, 5000);
  });
});
