import { UnfollowableStreamError, type Step } from './message-cutter';
import { CUT_TEXT_HEAD, EXTENDED_CLIPBOARD, RfbCutter, type ClipboardRules } from './rfb-cut-text';
import { mayPass, type Referee } from './rfb-referee';
import { rfbMinor, SECURITY_NONE, SECURITY_VNC, type RfbStreamState } from './rfb-stream-state';

/** Client messages of a fixed length (type byte included). */
const FIXED: Record<number, number> = { 0: 20, 3: 10, 4: 8, 5: 6, 150: 10, 250: 4 };
/** Variable-length client messages: the bytes that say how long they are. */
const HEAD: Record<number, number> = { 2: 4, 6: CUT_TEXT_HEAD, 248: 9, 251: 8, 255: 2 };

/**
 * Encodings whose rectangles the server reader can measure (rfb-server-cutter.ts), kept in a
 * SetEncodings when the server's side is read: Raw, CopyRect, ZRLE and the pseudo-encodings
 * Cursor, DesktopSize, LastRect, ExtendedDesktopSize, DesktopName, QEMU extended key events,
 * xvp, fences, continuous updates, the extended clipboard, JPEG quality and compression levels.
 */
export function followable(encoding: number): boolean {
  if (encoding >= -32 && encoding <= -23) return true;
  if (encoding >= -256 && encoding <= -247) return true;
  return FOLLOWABLE.has(encoding);
}
const FOLLOWABLE = new Set([
  0,
  1,
  16,
  -239,
  -223,
  -224,
  -308,
  -307,
  -258,
  -309,
  -312,
  -313,
  EXTENDED_CLIPBOARD,
]);

type State =
  'version' | 'security' | 'vncAuth' | 'clientInit' | 'type' | 'fixed' | 'head' | 'encodings';

/**
 * The browser's side of an RFB stream, policed for the clipboard: ClientCutText under the up
 * rules; with the server's side read, every SetEncodings cut down to what that reader can
 * follow; the pixel format and the handshake's choices noted for it. A message it does not
 * know ends the stream (UnfollowableStreamError): nothing passes unread. With a `referee` (a
 * joiner's stream) it also drops what the stream's role may not send (rfb-referee.ts), asks
 * for a shared connection whatever the client asked (an exclusive one would disconnect the
 * others, the owner first), and ends a stream that is not RFB.
 */
export class RfbClientCutter extends RfbCutter {
  private state: State = 'version';
  private fixedType = 0;
  /** A variable-length message's type byte, read before the rest of its head. */
  private typeByte: Buffer = Buffer.alloc(0);

  constructor(
    rules: ClipboardRules,
    private readonly stream: RfbStreamState,
    private readonly referee: Referee | null = null,
  ) {
    super(rules, 12);
  }

  /** Whether the referee drops a message of `type` now. */
  private refused(type: number): boolean {
    return this.referee !== null && !mayPass(this.referee.role, type);
  }

  protected afterMessage(): Step {
    this.state = 'type';
    return { out: null, need: 1 };
  }

  private read(out: Buffer | null, state: State, need: number, keep = 0): Step {
    this.state = state;
    return { out, need, keep };
  }

  protected next(head: Buffer): Step {
    const cut = this.cutStep(head);
    if (cut) return cut;
    switch (this.state) {
      case 'version':
        return this.version(head);
      case 'security':
        this.stream.security = head[0];
        if (head[0] === SECURITY_NONE) return this.read(head, 'clientInit', 1);
        if (head[0] === SECURITY_VNC) return this.read(head, 'vncAuth', 16);
        throw new UnfollowableStreamError(`RFB security type ${head[0]} cannot be followed`);
      case 'vncAuth':
        return this.read(head, 'clientInit', 1);
      case 'clientInit':
        // ClientInit's shared flag: 1 keeps the other viewers (and the owner) connected.
        return this.read(this.referee ? Buffer.from([1]) : head, 'type', 1);
      case 'type':
        return this.type(head);
      case 'fixed':
        // SetPixelFormat after its type byte: padding (3), then bits per pixel.
        if (this.fixedType === 0) this.stream.bytesPerPixel = head[3] / 8;
        return this.read(head, 'type', 1);
      case 'head':
        return this.variable(Buffer.concat([this.typeByte, head]));
      case 'encodings':
        return this.read(this.encodings(head), 'type', 1);
    }
  }

  private version(head: Buffer): Step {
    const minor = rfbMinor(head);
    // Another protocol: a VNC server would refuse it, so it cannot carry a clipboard there.
    if (minor === null) {
      if (this.referee) throw new UnfollowableStreamError('a joiner’s stream that is not RFB');
      return { out: head, need: 0 };
    }
    if (minor < 7) throw new UnfollowableStreamError('not an RFB 3.7 or 3.8 client');
    this.stream.clientMinor = minor;
    return this.read(head, 'security', 1);
  }

  private type(head: Buffer): Step {
    const type = head[0];
    const fixed = FIXED[type];
    if (fixed) {
      this.fixedType = type;
      // The type byte is read: the rest of the message is too, to note a pixel format.
      if (type === 0) return { ...this.read(head, 'fixed', fixed - 1) };
      if (this.refused(type)) return { ...this.afterMessage(), out: null, drop: fixed - 1 };
      return { ...this.afterMessage(), out: head, keep: fixed - 1 };
    }
    const size = HEAD[type];
    if (size === undefined) throw new UnfollowableStreamError(`RFB client message ${type}`);
    this.state = 'head';
    this.typeByte = head;
    return { out: null, need: size - 1 };
  }

  private variable(head: Buffer): Step {
    if (this.refused(head[0])) return { ...this.afterMessage(), out: null, drop: rest(head) };
    switch (head[0]) {
      case 2: {
        const count = head.readUInt16BE(2);
        if (count === 0) return { ...this.afterMessage(), out: head };
        this.encodingsHead = head;
        return this.read(null, 'encodings', 4 * count);
      }
      case 6:
        return this.cutText(head);
      case 248:
        return { ...this.afterMessage(), out: head, keep: head[8] };
      case 251:
        return { ...this.afterMessage(), out: head, keep: 16 * head[6] };
      default:
        // QEMU: only its extended KeyEvent (subtype 0) is known, 12 bytes in all.
        if (head[1] !== 0) throw new UnfollowableStreamError(`QEMU client message ${head[1]}`);
        return { ...this.afterMessage(), out: head, keep: 10 };
    }
  }

  private encodingsHead: Buffer = Buffer.alloc(0);

  /** SetEncodings, cut down to the followable ones when the server's side is read. */
  private encodings(list: Buffer): Buffer {
    const whole = Buffer.concat([this.encodingsHead, list]);
    if (!this.stream.followServer) return whole;
    const kept: number[] = [];
    for (let at = 0; at < list.length; at += 4) {
      const encoding = list.readInt32BE(at);
      if (followable(encoding)) kept.push(encoding);
    }
    const message = Buffer.alloc(4 + 4 * kept.length);
    message[0] = 2;
    message.writeUInt16BE(kept.length, 2);
    kept.forEach((encoding, i) => message.writeInt32BE(encoding, 4 + 4 * i));
    return message;
  }
}

/** The bytes after a variable-length client message's head (one of HEAD's types). */
function rest(head: Buffer): number {
  switch (head[0]) {
    case 2:
      return 4 * head.readUInt16BE(2);
    case 6:
      return Math.abs(head.readInt32BE(4));
    case 248:
      return head[8];
    case 251:
      return 16 * head[6];
    default:
      if (head[1] !== 0) throw new UnfollowableStreamError(`QEMU client message ${head[1]}`);
      return 10;
  }
}
