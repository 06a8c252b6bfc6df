/**
 * Tells a person's input apart from a viewer's housekeeping on the browser's side of a session's
 * WebSocket (browser to container), for the idle limit. It observes the bytes the pipe forwards
 * and never changes them.
 *
 * The WebSocket frames (RFC 6455) are read just enough to collect the payload of binary messages,
 * the RFB byte stream noVNC sends. A stream whose first client bytes are an RFB ProtocolVersion
 * ("RFB 003.008\n") is followed message by message after its handshake: only KeyEvent,
 * PointerEvent, ClientCutText (and QEMU's extended KeyEvent) are input; screen update requests,
 * encodings, pixel formats, fences, continuous updates and desktop resizes are not, nor are
 * text, ping, pong or close frames. Anything it cannot follow (another protocol, an unknown
 * message or security type, a compressed frame) makes every later chunk count as input: better a
 * session kept alive than one stopped under its user.
 */

const enum Frame {
  Head, // the first two header bytes
  Length, // the extended payload length
  Mask, // the masking key
  Payload,
}

const OPCODE_CONTINUATION = 0x0;
const OPCODE_BINARY = 0x2;

const RFB_VERSION = /^RFB \d{3}\.\d{3}\n$/;
const RFB_PREFIX = 'RFB 000.000\n';

const SECURITY_NONE = 1;
const SECURITY_VNC = 2;

/** Message types whose length is fixed, and whether they are a person's input. */
const FIXED: Record<number, { length: number; input: boolean }> = {
  0: { length: 20, input: false }, // SetPixelFormat
  3: { length: 10, input: false }, // FramebufferUpdateRequest
  4: { length: 8, input: true }, // KeyEvent
  5: { length: 6, input: true }, // PointerEvent
  150: { length: 10, input: false }, // EnableContinuousUpdates
  250: { length: 4, input: true }, // xvp (shutdown, reboot: asked by a person)
};

/** Variable-length messages: the bytes that say how long they are (type byte included). */
const VARIABLE_HEAD: Record<number, number> = { 2: 4, 6: 8, 248: 9, 251: 8, 255: 2 };

type RfbStep = 'version' | 'security' | 'vncAuth' | 'clientInit' | 'type' | 'fixed' | 'head';

/** What the observer has learned of the stream. */
export type StreamKind = 'unknown' | 'rfb' | 'other';

export class ClientInputObserver {
  /** Once set, every chunk counts as input and nothing is parsed any more. */
  private passthrough = false;
  kind: StreamKind = 'unknown';

  /** `onMessage`: told of each whole input message (KeyEvent, PointerEvent…), for recordings. */
  constructor(private readonly onMessage?: (message: Buffer) => void) {}

  // The WebSocket frame being read.
  private frame = Frame.Head;
  private head = Buffer.alloc(14);
  private headLength = 0;
  private headNeeded = 2;
  private masked = false;
  private mask = Buffer.alloc(4);
  private maskOffset = 0;
  private payloadLeft = 0;
  private frameIsBinary = false;
  private frameIsText = false;
  /** Whether the data message that continuation frames continue is binary. */
  private messageBinary = false;

  // The RFB stream inside the binary messages.
  private rfb = Buffer.alloc(64);
  private rfbLength = 0;
  private rfbNeeded = 12;
  private rfbStep: RfbStep = 'version';
  /** Bytes of the current message to pass over unread (an encodings list, a clipboard). */
  private skipLeft = 0;
  /** Whether the fixed-length message being read is input. */
  private fixedInput = false;

  /** Whether this chunk of the browser's bytes carried a person's input. */
  push(chunk: Buffer): boolean {
    if (this.passthrough) return true;
    let input = false;
    let at = 0;
    while (at < chunk.length && !this.passthrough) {
      if (this.frame !== Frame.Payload) {
        this.head[this.headLength++] = chunk[at++];
        if (this.headLength === this.headNeeded) this.headRead();
        continue;
      }
      const take = Math.min(this.payloadLeft, chunk.length - at);
      if (this.frameIsBinary) {
        if (this.payload(chunk, at, take)) input = true;
      } else if (this.frameIsText && this.kind === 'unknown') {
        // A text message before any RFB bytes: not a VNC stream.
        this.giveUp();
      }
      at += take;
      this.payloadLeft -= take;
      if (this.payloadLeft === 0) this.frameDone();
    }
    return input || this.passthrough;
  }

  private giveUp(): void {
    if (this.kind === 'unknown') this.kind = 'other';
    this.passthrough = true;
  }

  private headRead(): void {
    const b0 = this.head[0];
    const b1 = this.head[1];
    if (this.frame === Frame.Head) {
      const opcode = b0 & 0x0f;
      const rsv = b0 & 0x70;
      this.masked = (b1 & 0x80) !== 0;
      const length = b1 & 0x7f;
      if (opcode === OPCODE_BINARY) this.messageBinary = true;
      else if (opcode === 0x1) this.messageBinary = false;
      const data = opcode < 0x8;
      this.frameIsBinary =
        opcode === OPCODE_BINARY || (opcode === OPCODE_CONTINUATION && this.messageBinary);
      this.frameIsText = data && !this.frameIsBinary;
      // A compressed (permessage-deflate) data frame cannot be read here.
      if (rsv !== 0 && data) return this.giveUp();
      if (length === 126 || length === 127) {
        this.frame = Frame.Length;
        this.headNeeded = 2 + (length === 126 ? 2 : 8);
        return;
      }
      this.payloadLeft = length;
    } else if (this.frame === Frame.Length) {
      if (this.headNeeded === 4) this.payloadLeft = this.head.readUInt16BE(2);
      else {
        const big = this.head.readBigUInt64BE(2);
        if (big > BigInt(Number.MAX_SAFE_INTEGER)) return this.giveUp();
        this.payloadLeft = Number(big);
      }
    } else {
      this.head.copy(this.mask, 0, this.headNeeded - 4, this.headNeeded);
      this.maskOffset = 0;
      return this.payloadStarts();
    }
    if (this.masked) {
      this.frame = Frame.Mask;
      this.headNeeded += 4;
      return;
    }
    this.payloadStarts();
  }

  private payloadStarts(): void {
    this.frame = Frame.Payload;
    if (this.payloadLeft === 0) this.frameDone();
  }

  private frameDone(): void {
    this.frame = Frame.Head;
    this.headLength = 0;
    this.headNeeded = 2;
    this.maskOffset = 0;
  }

  /** Feeds `take` payload bytes of a binary frame to the RFB reader; true on input. */
  private payload(chunk: Buffer, at: number, take: number): boolean {
    let input = false;
    for (let i = at; i < at + take && !this.passthrough;) {
      if (this.skipLeft > 0) {
        const step = Math.min(this.skipLeft, at + take - i);
        this.skipLeft -= step;
        i += step;
        if (this.masked) this.maskOffset = (this.maskOffset + step) & 3;
        continue;
      }
      let byte = chunk[i++];
      if (this.masked) {
        byte ^= this.mask[this.maskOffset];
        this.maskOffset = (this.maskOffset + 1) & 3;
      }
      if (this.rfbByte(byte)) input = true;
    }
    return input;
  }

  /** One byte of the RFB stream; true when it completes a message that is input. */
  private rfbByte(byte: number): boolean {
    if (this.rfbStep === 'version') {
      if (byte !== RFB_PREFIX.charCodeAt(this.rfbLength) && !isVersionDigit(this.rfbLength, byte)) {
        this.giveUp();
        return true;
      }
    }
    this.rfb[this.rfbLength++] = byte;
    if (this.rfbLength < this.rfbNeeded) return false;
    return this.rfbMessage();
  }

  private rfbMessage(): boolean {
    const message = this.rfb.subarray(0, this.rfbLength);
    switch (this.rfbStep) {
      case 'version': {
        const version = message.toString('latin1');
        if (!RFB_VERSION.test(version)) return this.unfollowable();
        this.kind = 'rfb';
        // In 3.3 the server picks the security type and the client says nothing of it.
        if (version === 'RFB 003.003\n') return this.unfollowable();
        return this.next('security', 1);
      }
      case 'security':
        if (message[0] === SECURITY_NONE) return this.next('clientInit', 1);
        if (message[0] === SECURITY_VNC) return this.next('vncAuth', 16);
        return this.unfollowable();
      case 'vncAuth':
        return this.next('clientInit', 1);
      case 'clientInit':
        return this.next('type', 1);
      case 'type':
        return this.messageType(message[0]);
      case 'fixed':
        if (this.fixedInput) this.onMessage?.(Buffer.from(message));
        return this.messageEnds(this.fixedInput);
      case 'head':
        return this.messageHead(message);
    }
  }

  private next(step: RfbStep, needed: number): false {
    this.rfbStep = step;
    this.rfbNeeded = needed;
    this.rfbLength = 0;
    return false;
  }

  /** The first byte of a client message: its type. */
  private messageType(type: number): boolean {
    const fixed = FIXED[type];
    if (fixed) {
      this.fixedInput = fixed.input;
      this.rfbStep = 'fixed';
      this.rfbNeeded = fixed.length;
      return false;
    }
    const head = VARIABLE_HEAD[type];
    if (head === undefined) return this.unfollowable();
    this.rfbStep = 'head';
    this.rfbNeeded = head;
    return false;
  }

  /** A variable-length message's fixed part is read: skip its rest; whether it is input. */
  private messageHead(message: Buffer): boolean {
    switch (message[0]) {
      case 2: // SetEncodings: type, padding, count (u16), count × s32
        return this.skipThen(4 * message.readUInt16BE(2), false);
      case 6: // ClientCutText: type, 3 padding, length (s32; extended clipboard: negative), text
        return this.skipThen(Math.abs(message.readInt32BE(4)), true);
      case 248: // ClientFence: type, 3 padding, flags (u32), length (u8), payload
        return this.skipThen(message[8], false);
      case 251: // SetDesktopSize: type, padding, w, h (u16), screens (u8), padding, screens × 16
        return this.skipThen(16 * message[6], false);
      default: // 255, QEMU: only its extended KeyEvent (subtype 0) is known, 12 bytes in all.
        if (message[1] !== 0) return this.unfollowable();
        this.fixedInput = true;
        this.rfbStep = 'fixed';
        this.rfbNeeded = 12;
        return false;
    }
  }

  private skipThen(bytes: number, input: boolean): boolean {
    this.skipLeft = bytes;
    return this.messageEnds(input);
  }

  /** A message ended: the next byte is a type. */
  private messageEnds(input: boolean): boolean {
    this.next('type', 1);
    return input;
  }

  private unfollowable(): true {
    this.giveUp();
    return true;
  }
}

/** Whether byte at position `index` of a ProtocolVersion may be a digit there. */
function isVersionDigit(index: number, byte: number): boolean {
  return RFB_PREFIX.charCodeAt(index) === 0x30 && byte >= 0x30 && byte <= 0x39;
}
