import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { ClientInputObserver } from './rfb-input';

/** A client frame as a browser sends it: FIN, opcode, masked, with the shortest length form. */
function frame(payload: Buffer, opcode = 0x2, fin = true, mask = randomBytes(4)): Buffer {
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0, 0x80 | length])
      : length < 0x10000
        ? Buffer.from([0, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0, 0x80 | 127]), u64(length)]);
  head[0] = (fin ? 0x80 : 0) | opcode;
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i & 3]));
  return Buffer.concat([head, mask, body]);
}
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};

const version = Buffer.from('RFB 003.008\n', 'latin1');
const securityNone = Buffer.from([1]);
const clientInit = Buffer.from([1]);
const handshake = [version, securityNone, clientInit];

function setEncodings(encodings: number[]): Buffer {
  const b = Buffer.alloc(4 + 4 * encodings.length);
  b[0] = 2;
  b.writeUInt16BE(encodings.length, 2);
  encodings.forEach((e, i) => b.writeInt32BE(e, 4 + 4 * i));
  return b;
}
function updateRequest(incremental = true): Buffer {
  const b = Buffer.alloc(10);
  b[0] = 3;
  b[1] = incremental ? 1 : 0;
  b.writeUInt16BE(1280, 6);
  b.writeUInt16BE(800, 8);
  return b;
}
const setPixelFormat = () => Buffer.concat([Buffer.from([0]), Buffer.alloc(19)]);
const keyEvent = () => Buffer.from([4, 1, 0, 0, 0, 0, 0xff, 0x0d]);
const pointerEvent = () => Buffer.from([5, 1, 0, 10, 0, 20]);
function cutText(text: string, extended = false): Buffer {
  const b = Buffer.alloc(8);
  b[0] = 6;
  b.writeInt32BE(extended ? -text.length : text.length, 4);
  return Buffer.concat([b, Buffer.from(text, 'latin1')]);
}
const enableContinuous = () => Buffer.from([150, 1, 0, 0, 0, 0, 5, 0, 3, 32]);
const clientFence = (payload: number) =>
  Buffer.concat([Buffer.from([248, 0, 0, 0, 0, 0, 0, 3, payload]), Buffer.alloc(payload, 7)]);
function setDesktopSize(screens: number): Buffer {
  const b = Buffer.alloc(8 + 16 * screens);
  b[0] = 251;
  b[6] = screens;
  return b;
}
const qemuKey = () => Buffer.from([255, 0, 0, 1, 0, 0, 0, 0x61, 0, 0, 0, 30]);

/** Feeds chunks; answers whether each counted as input. */
function observe(chunks: Buffer[], observer = new ClientInputObserver()): boolean[] {
  return chunks.map((chunk) => observer.push(chunk));
}
const anyInput = (chunks: Buffer[], observer = new ClientInputObserver()) =>
  observe(chunks, observer).some(Boolean);

/** Cuts a byte string at the given offsets (sorted, within it). */
function cut(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    parts.push(bytes.subarray(from, p));
    from = p;
  }
  parts.push(bytes.subarray(from));
  return parts.filter((part) => part.length > 0);
}

describe('ClientInputObserver', () => {
  it('finds no input in a handshake, encodings and screen update requests', () => {
    const observer = new ClientInputObserver();
    const results = observe(
      [
        ...handshake.map((m) => frame(m)),
        frame(Buffer.concat([setPixelFormat(), setEncodings([0, 7, -223, -258])])),
        frame(updateRequest(false)),
        frame(Buffer.concat([updateRequest(), updateRequest(), enableContinuous()])),
        frame(Buffer.concat([clientFence(4), setDesktopSize(2)])),
      ],
      observer,
    );
    expect(results).toEqual(Array(7).fill(false));
    expect(observer.kind).toBe('rfb');
    // And keeps finding none: another minute of an open tab.
    expect(
      anyInput(
        Array.from({ length: 100 }, () => frame(updateRequest())),
        observer,
      ),
    ).toBe(false);
  });

  it.each([
    ['a key', keyEvent()],
    ['the pointer', pointerEvent()],
    ['a paste', cutText('hello')],
    ['an extended clipboard message', cutText('hello', true)],
    ["QEMU's extended key", qemuKey()],
  ])('counts %s as input, and the update request after it not', (_, message) => {
    const observer = new ClientInputObserver();
    observe([...handshake.map((m) => frame(m)), frame(setEncodings([0]))], observer);
    expect(observer.push(frame(Buffer.concat([updateRequest(), message])))).toBe(true);
    expect(observer.push(frame(updateRequest()))).toBe(false);
  });

  it('reads 16- and 64-bit lengths, fragmented messages and control frames between them', () => {
    const observer = new ClientInputObserver();
    observe(
      handshake.map((m) => frame(m)),
      observer,
    );
    // A long clipboard (16-bit length), then a huge one (64-bit), neither followed by anything.
    expect(observer.push(frame(cutText('x'.repeat(1000))))).toBe(true);
    expect(observer.push(frame(cutText('y'.repeat(70_000))))).toBe(true);
    // 300 update requests in one frame: a 16-bit length of no input.
    const many = Buffer.concat(Array.from({ length: 300 }, () => updateRequest()));
    expect(observer.push(frame(many))).toBe(false);
    // A message fragmented across a binary frame and a continuation, a ping and pong between.
    const pointer = pointerEvent();
    const request = updateRequest();
    expect(observer.push(frame(request.subarray(0, 4), 0x2, false))).toBe(false);
    expect(observer.push(frame(Buffer.from('ping'), 0x9))).toBe(false);
    expect(observer.push(frame(Buffer.alloc(0), 0xa))).toBe(false);
    expect(observer.push(frame(request.subarray(4), 0x0, true))).toBe(false);
    expect(observer.push(frame(pointer.subarray(0, 3), 0x2, false))).toBe(false);
    expect(observer.push(frame(pointer.subarray(3), 0x0, true))).toBe(true);
    // Text frames carry no RFB input; the stream stays followed.
    expect(observer.push(frame(Buffer.from('hello'), 0x1))).toBe(false);
    expect(observer.push(frame(updateRequest()))).toBe(false);
    expect(observer.kind).toBe('rfb');
    // A close frame is no input.
    expect(observer.push(frame(Buffer.from([3, 232]), 0x8))).toBe(false);
  });

  it('follows VNC authentication (16 bytes) before ClientInit', () => {
    const observer = new ClientInputObserver();
    const messages = [version, Buffer.from([2]), randomBytes(16), clientInit, updateRequest()];
    expect(
      anyInput(
        messages.map((m) => frame(m)),
        observer,
      ),
    ).toBe(false);
    expect(observer.push(frame(keyEvent()))).toBe(true);
  });

  it('counts everything as input on a stream that is not RFB, as before', () => {
    const text = new ClientInputObserver();
    expect(text.push(frame(Buffer.from('key'), 0x1))).toBe(true);
    expect(text.kind).toBe('other');
    expect(text.push(frame(updateRequest()))).toBe(true);
    const binary = new ClientInputObserver();
    expect(binary.push(frame(Buffer.from('GET / HTTP/1.1')))).toBe(true);
    expect(binary.kind).toBe('other');
  });

  it.each([
    ['an unknown message type', [frame(Buffer.from([99, 0, 0, 0]))]],
    ['an unknown QEMU message', [frame(Buffer.from([255, 1, 0, 0]))]],
    ['a compressed frame', [Buffer.from([0xc2, 0x80, 0, 0, 0, 0])]],
  ])('gives up on %s: it and every later chunk count as input', (_, chunks) => {
    const observer = new ClientInputObserver();
    observe(
      handshake.map((m) => frame(m)),
      observer,
    );
    expect(observe(chunks, observer)).toEqual(chunks.map(() => true));
    expect(observer.push(frame(updateRequest()))).toBe(true);
  });

  it.each([
    ['RFB 3.3, whose security the client does not say', [Buffer.from('RFB 003.003\n')]],
    ['another security type', [version, Buffer.from([19])]],
  ])('gives up on %s', (_, messages) => {
    const observer = new ClientInputObserver();
    expect(
      anyInput(
        messages.map((m) => frame(m)),
        observer,
      ),
    ).toBe(true);
    expect(observer.push(frame(updateRequest()))).toBe(true);
  });

  // The same frames, whatever TCP makes of them, say the same: input is seen in the chunk that
  // completes an input message, and the whole stream has input exactly when it carries some.
  const message = fc.oneof(
    fc.constant(updateRequest()),
    fc.constant(setPixelFormat()),
    fc.integer({ min: 0, max: 40 }).map((n) => setEncodings(Array.from({ length: n }, () => 7))),
    fc.integer({ min: 0, max: 255 }).map(clientFence),
    fc.integer({ min: 0, max: 4 }).map(setDesktopSize),
    fc.constant(enableContinuous()),
    fc.constant(keyEvent()),
    fc.constant(pointerEvent()),
    fc.constant(qemuKey()),
    fc.string({ maxLength: 300 }).map((s) => cutText(s)),
  );
  const isInput = (m: Buffer) => [4, 5, 6, 255].includes(m[0]);

  it('finds input the same way however the frames are chunked (property)', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        (messages, framing, cuts, pings) => {
          // The messages' bytes, split into frames of `framing` messages each, some
          // fragmented, pings between some.
          const frames: Buffer[] = handshake.map((m) => frame(m));
          let i = 0;
          let f = 0;
          while (i < messages.length) {
            const n = framing[f++ % Math.max(framing.length, 1)] ?? 1;
            const bytes = Buffer.concat(messages.slice(i, i + n));
            i += n;
            if (bytes.length > 2 && n % 2 === 0) {
              const half = bytes.length >> 1;
              frames.push(frame(bytes.subarray(0, half), 0x2, false));
              if (pings) frames.push(frame(Buffer.from('p'), 0x9));
              frames.push(frame(bytes.subarray(half), 0x0, true));
            } else frames.push(frame(bytes));
          }
          const stream = Buffer.concat(frames);
          const whole = new ClientInputObserver();
          const inWhole = whole.push(stream);
          const chunked = new ClientInputObserver();
          const inChunks = observe(cut(stream, cuts), chunked).some(Boolean);
          expect(inWhole).toBe(messages.some(isInput));
          expect(inChunks).toBe(inWhole);
          // Both are still following the stream: a lone update request is no input.
          expect(whole.push(frame(updateRequest()))).toBe(false);
          expect(chunked.push(frame(updateRequest()))).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('byte by byte, the input is seen at the byte that completes the input message', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 10 }), (messages) => {
        const observer = new ClientInputObserver();
        observe(
          handshake.map((m) => frame(m)),
          observer,
        );
        for (const m of messages) {
          const bytes = frame(m);
          const seen = [...bytes].map((byte) => observer.push(Buffer.from([byte])));
          // A message's input shows at its last byte, or at its fixed part for a paste.
          expect(seen.some(Boolean)).toBe(isInput(m));
        }
      }),
      { numRuns: 200 },
    );
  });
});
