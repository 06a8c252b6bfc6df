import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { createClipboardGuard, type ClipboardPolicy } from './clipboard-guard';
import { frameOf } from './frame-rewriter';
import type { ClipboardRefusal } from './rfb-cut-text';

const MASK = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
const binary = (payload: Buffer, masked: boolean) => frameOf(0x82, payload, masked ? MASK : null);

/** Reads frames back: their FIN+opcode byte and unmasked payloads. */
function unframe(bytes: Buffer): { b0: number; payload: Buffer }[] {
  const frames: { b0: number; payload: Buffer }[] = [];
  let at = 0;
  while (at < bytes.length) {
    const b0 = bytes[at];
    const masked = (bytes[at + 1] & 0x80) !== 0;
    let length = bytes[at + 1] & 0x7f;
    let head = 2;
    if (length === 126) [length, head] = [bytes.readUInt16BE(at + 2), 4];
    else if (length === 127) [length, head] = [Number(bytes.readBigUInt64BE(at + 2)), 10];
    const mask = masked ? bytes.subarray(at + head, at + head + 4) : null;
    if (mask) head += 4;
    const payload = Buffer.from(bytes.subarray(at + head, at + head + length));
    if (mask) for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
    frames.push({ b0, payload });
    at += head + length;
  }
  return frames;
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const s32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const cut = (type: number, text: Buffer) =>
  Buffer.concat([Buffer.from([type, 0, 0, 0]), s32(text.length), text]);
const EXTENDED = -1063131698;
const PROVIDE = (1 << 28) | 1;
const extended = (type: number, flags: number, body: Buffer) => {
  const f = Buffer.alloc(4);
  f.writeUInt32BE(flags >>> 0);
  return Buffer.concat([Buffer.from([type, 0, 0, 0]), s32(-(4 + body.length)), f, body]);
};
const provide = (type: number, text: string) => {
  const utf8 = Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
  return extended(type, PROVIDE, deflateSync(Buffer.concat([s32(utf8.length), utf8])));
};

/** A provide as TigerVNC's Xvnc sends it: its zlib stream flushed (sync), never ended. */
const flushedProvide = (type: number, text: string) => {
  const utf8 = Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
  const raw = deflateRawSync(Buffer.concat([s32(utf8.length), utf8]), {
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  // A zlib header (deflate, 32K window, no dictionary) before the flushed deflate blocks.
  return extended(type, PROVIDE, Buffer.concat([Buffer.from([0x78, 0x9c]), raw]));
};

// The browser's side after its version, security None and ClientInit; the server's handshake.
const CLIENT_HELLO = Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.from([1, 1])]);
const pixelFormat = Buffer.from([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0]);
const SERVER_HELLO = Buffer.concat([
  Buffer.from('RFB 003.008\n'),
  Buffer.from([1, 1]),
  s32(0),
  u16(4),
  u16(2),
  pixelFormat,
  s32(3),
  Buffer.from('box'),
]);
const setEncodings = (list: number[]) =>
  Buffer.concat([Buffer.from([2, 0]), u16(list.length), ...list.map(s32)]);
const key = Buffer.from([4, 1, 0, 0, 0, 0, 0, 0x61]);
// A framebuffer update: one 2×1 Raw rectangle (8 bytes of pixels), then a ZRLE one of 3 bytes.
const update = Buffer.concat([
  Buffer.from([0, 0]),
  u16(2),
  u16(0),
  u16(0),
  u16(2),
  u16(1),
  s32(0),
  Buffer.alloc(8, 7),
  u16(0),
  u16(0),
  u16(1),
  u16(1),
  s32(16),
  s32(3),
  Buffer.from([1, 2, 3]),
]);

interface Run {
  out: Buffer;
  refusals: ClipboardRefusal[];
}

/** Sends `messages` (one frame each) through one side, cut into chunks of `size` bytes. */
function run(
  policy: ClipboardPolicy,
  side: 'browser' | 'container',
  messages: Buffer[],
  size: number,
  masked: boolean,
): Run {
  const refusals: ClipboardRefusal[] = [];
  const guard = createClipboardGuard(policy, (r) => refusals.push(r));
  if (!guard) throw new Error('no guard');
  const out: Buffer[] = [];
  // The browser's handshake first: the container's reader follows the choices it made.
  if (side === 'container') guard.fromBrowser.push(binary(CLIENT_HELLO, true));
  const rewriter = side === 'browser' ? guard.fromBrowser : guard.fromContainer;
  if (!rewriter) throw new Error('the container side is not read');
  const bytes = Buffer.concat(messages.map((m) => binary(m, masked)));
  for (let at = 0; at < bytes.length; at += size)
    out.push(...rewriter.push(bytes.subarray(at, at + size)));
  return { out: Buffer.concat(out), refusals };
}

const payloadOf = (out: Buffer) => Buffer.concat(unframe(out).map((f) => f.payload));
const SIZES = [1, 2, 3, 5, 7, 13, 1000];

describe('the clipboard guard', () => {
  it('reads nothing when the policy allows both ways without a limit', () => {
    expect(createClipboardGuard({ allowUp: true, allowDown: true, maxBytes: null }, () => 0)).toBe(
      null,
    );
  });

  it('does not read the container side when only up is restricted', () => {
    const guard = createClipboardGuard(
      { allowUp: false, allowDown: true, maxBytes: null },
      () => 0,
    );
    expect(guard?.fromContainer).toBe(null);
  });

  describe.each([true, false])('browser frames masked: %s', (masked) => {
    it.each(SIZES)('drops ClientCutText when up is refused (chunks of %i bytes)', (size) => {
      const text = cut(6, Buffer.from('secret'));
      const { out, refusals } = run(
        { allowUp: false, allowDown: true, maxBytes: null },
        'browser',
        [CLIENT_HELLO, key, text, key],
        size,
        masked,
      );
      expect(payloadOf(out)).toEqual(Buffer.concat([CLIENT_HELLO, key, key]));
      expect(refusals).toEqual([{ direction: 'up', bytes: 6, reason: 'refused' }]);
      // A frame left whole was not changed: it goes on as it came, masked as it was.
      expect(unframe(out).every((f) => f.b0 === 0x82)).toBe(true);
    });

    it.each(SIZES)('keeps a text under the limit and drops one past it (%i)', (size) => {
      const small = cut(6, Buffer.from('ok'));
      const big = cut(6, Buffer.alloc(11, 0x41));
      const { out, refusals } = run(
        { allowUp: true, allowDown: true, maxBytes: 10 },
        'browser',
        [CLIENT_HELLO, small, big, key],
        size,
        masked,
      );
      expect(payloadOf(out)).toEqual(Buffer.concat([CLIENT_HELLO, small, key]));
      expect(refusals).toEqual([{ direction: 'up', bytes: 11, reason: 'too_large' }]);
    });

    it.each(SIZES)('measures an extended provide by its inflated text (%i)', (size) => {
      const fits = provide(6, 'héllo ✓');
      const past = provide(6, 'x'.repeat(200));
      const { out, refusals } = run(
        { allowUp: true, allowDown: true, maxBytes: 100 },
        'browser',
        [CLIENT_HELLO, fits, past],
        size,
        masked,
      );
      expect(payloadOf(out)).toEqual(Buffer.concat([CLIENT_HELLO, fits]));
      expect(refusals).toEqual([{ direction: 'up', bytes: 200, reason: 'too_large' }]);
    });
  });

  it.each(SIZES)(
    'measures a provide whose zlib stream was flushed, not ended, as Xvnc sends it (%i)',
    (size) => {
      const fits = flushedProvide(3, 'Grüße 🚀 日本語');
      const past = flushedProvide(3, 'x'.repeat(200));
      const { out, refusals } = run(
        { allowUp: true, allowDown: true, maxBytes: 100 },
        'container',
        [SERVER_HELLO, fits, update, past, update],
        size,
        false,
      );
      expect(payloadOf(out)).toEqual(Buffer.concat([SERVER_HELLO, fits, update, update]));
      expect(refusals).toEqual([{ direction: 'down', bytes: 200, reason: 'too_large' }]);
    },
  );

  it.each([
    ['up refused', { allowUp: false, allowDown: true, maxBytes: null }],
    ['a limit', { allowUp: true, allowDown: true, maxBytes: 10 }],
  ])('passes the browser’s caps, which name notify and provide, under %s', (_name, policy) => {
    // Caps (1 << 24) with the actions it supports: request, peek, notify, provide; text only.
    const caps = extended(6, (0x1f << 24) | 1, s32(1 << 20));
    const { out, refusals } = run(policy, 'browser', [CLIENT_HELLO, caps, key], 3, true);
    expect(payloadOf(out)).toEqual(Buffer.concat([CLIENT_HELLO, caps, key]));
    expect(refusals).toEqual([]);
  });

  it.each([
    ['down refused', { allowUp: true, allowDown: false, maxBytes: null }],
    ['a limit', { allowUp: true, allowDown: true, maxBytes: 10 }],
  ])('passes the server’s caps, which name notify and provide, under %s', (_name, policy) => {
    const caps = extended(3, (0x1f << 24) | 1, s32(10 << 20));
    const { out, refusals } = run(policy, 'container', [SERVER_HELLO, caps, update], 5, false);
    expect(payloadOf(out)).toEqual(Buffer.concat([SERVER_HELLO, caps, update]));
    expect(refusals).toEqual([]);
  });

  it('lets extended caps and requests pass while up is refused, not notify or provide', () => {
    const caps = extended(6, (1 << 24) | 1, s32(1024));
    const request = extended(6, (1 << 25) | 1, Buffer.alloc(0));
    const notify = extended(6, (1 << 27) | 1, Buffer.alloc(0));
    const { out, refusals } = run(
      { allowUp: false, allowDown: true, maxBytes: null },
      'browser',
      [CLIENT_HELLO, caps, notify, request, provide(6, 'no')],
      3,
      true,
    );
    expect(payloadOf(out)).toEqual(Buffer.concat([CLIENT_HELLO, caps, request]));
    expect(refusals.map((r) => r.reason)).toEqual(['refused', 'refused']);
  });

  it('cuts SetEncodings to what the container reader can measure when down is read', () => {
    const { out } = run(
      { allowUp: true, allowDown: false, maxBytes: null },
      'browser',
      [CLIENT_HELLO, setEncodings([7, 16, 5, 0, 1, -239, -314, EXTENDED, -260, -23])],
      4,
      true,
    );
    expect(payloadOf(out)).toEqual(
      Buffer.concat([CLIENT_HELLO, setEncodings([16, 0, 1, -239, EXTENDED, -23])]),
    );
  });

  it.each(SIZES)('drops ServerCutText when down is refused; updates pass (%i)', (size) => {
    const text = cut(3, Buffer.from('from the desktop'));
    const bell = Buffer.from([2]);
    const { out, refusals } = run(
      { allowUp: true, allowDown: false, maxBytes: null },
      'container',
      [SERVER_HELLO, update, text, bell, provide(3, 'too'), update],
      size,
      false,
    );
    expect(payloadOf(out)).toEqual(Buffer.concat([SERVER_HELLO, update, bell, update]));
    expect(refusals.map((r) => [r.direction, r.reason])).toEqual([
      ['down', 'refused'],
      ['down', 'refused'],
    ]);
  });

  // The session page's remote resize: the browser asks for its window's size (SetDesktopSize,
  // one screen), the server answers with an ExtendedDesktopSize rectangle, then draws anew.
  const screen = Buffer.concat([s32(0), u16(0), u16(0), u16(1000), u16(700), s32(0)]);
  const setDesktopSize = Buffer.concat([
    Buffer.from([251, 0]),
    u16(1000),
    u16(700),
    Buffer.from([1, 0]),
    screen,
  ]);
  const resized = Buffer.concat([
    Buffer.from([0, 0]),
    u16(2),
    u16(0),
    u16(1),
    u16(1000),
    u16(700),
    s32(-308),
    Buffer.from([1, 0, 0, 0]),
    screen,
    u16(0),
    u16(0),
    u16(1),
    u16(1),
    s32(0),
    Buffer.alloc(4, 9),
  ]);

  it.each([
    ['up refused', { allowUp: false, allowDown: true, maxBytes: null }],
    ['down refused', { allowUp: true, allowDown: false, maxBytes: null }],
    ['a limit', { allowUp: true, allowDown: true, maxBytes: 10 }],
  ])('passes the owner’s SetDesktopSize unchanged under %s', (_name, policy) => {
    for (const size of SIZES) {
      const { out, refusals } = run(
        policy,
        'browser',
        [CLIENT_HELLO, key, setDesktopSize, key],
        size,
        true,
      );
      expect(payloadOf(out)).toEqual(Buffer.concat([CLIENT_HELLO, key, setDesktopSize, key]));
      expect(refusals).toEqual([]);
    }
  });

  it.each(SIZES)(
    'follows the server’s ExtendedDesktopSize answer and the update after it (%i)',
    (size) => {
      const { out } = run(
        { allowUp: true, allowDown: false, maxBytes: null },
        'container',
        [SERVER_HELLO, resized, update],
        size,
        false,
      );
      expect(payloadOf(out)).toEqual(Buffer.concat([SERVER_HELLO, resized, update]));
    },
  );

  it('leaves out a whole message left empty, and keeps control frames as they are', () => {
    const refusals: ClipboardRefusal[] = [];
    const guard = createClipboardGuard({ allowUp: false, allowDown: true, maxBytes: null }, (r) =>
      refusals.push(r),
    );
    const ping = frameOf(0x89, Buffer.from('hi'), MASK);
    const bytes = Buffer.concat([
      binary(CLIENT_HELLO, true),
      binary(cut(6, Buffer.from('x')), true),
      ping,
    ]);
    const out = Buffer.concat(guard?.fromBrowser.push(bytes) ?? []);
    expect(out).toEqual(Buffer.concat([binary(CLIENT_HELLO, true), ping]));
  });

  it('closes (throws) on an encoding it cannot measure, and on a text frame', () => {
    const tight = Buffer.concat([
      Buffer.from([0, 0]),
      u16(1),
      u16(0),
      u16(0),
      u16(1),
      u16(1),
      s32(7),
      Buffer.alloc(4),
    ]);
    expect(() =>
      run(
        { allowUp: true, allowDown: false, maxBytes: null },
        'container',
        [SERVER_HELLO, tight],
        9,
        false,
      ),
    ).toThrow('RFB encoding 7 cannot be measured');
    const guard = createClipboardGuard(
      { allowUp: false, allowDown: true, maxBytes: null },
      () => 0,
    );
    expect(() => guard?.fromBrowser.push(frameOf(0x81, Buffer.from('UkZC'), MASK))).toThrow(
      'a text WebSocket frame on an RFB stream',
    );
  });

  it('lets a stream whose server does not speak RFB be', () => {
    const guard = createClipboardGuard(
      { allowUp: false, allowDown: false, maxBytes: null },
      () => 0,
    );
    const hello = frameOf(0x81, Buffer.from('{"hello":1}'), null);
    expect(guard?.fromContainer?.push(hello)).toEqual([hello]);
    const text = frameOf(0x81, Buffer.from('{"x":2}'), MASK);
    expect(Buffer.concat(guard?.fromBrowser.push(text) ?? [])).toEqual(text);
  });
});
