import { UnfollowableStreamError, type Step } from './message-cutter';
import { CUT_TEXT_HEAD, RfbCutter, type ClipboardRules } from './rfb-cut-text';
import { rfbMinor, SECURITY_NONE, SECURITY_VNC, type RfbStreamState } from './rfb-stream-state';

type State =
  | 'version'
  | 'security33'
  | 'securityCount'
  | 'securityTypes'
  | 'afterTypes'
  | 'challenge'
  | 'result'
  | 'reasonLength'
  | 'serverInit'
  | 'type'
  | 'head'
  | 'rect'
  | 'length'
  | 'screens';

const RECT_HEAD = 12;
/** Server messages' heads (type byte included), for those not of a fixed length. */
const HEAD: Record<number, number> = { 0: 4, 1: 6, 3: CUT_TEXT_HEAD, 248: 9 };
/** Fixed-length server messages: Bell, EndOfContinuousUpdates, xvp. */
const FIXED: Record<number, number> = { 2: 1, 150: 1, 250: 4 };

/**
 * The container's side of an RFB stream, read message by message to keep ServerCutText under
 * the down rules. Framebuffer updates are measured, never decoded: their rectangles use only
 * the encodings the client's SetEncodings was cut down to (rfb-client-cutter.ts), and one it
 * cannot measure ends the stream (UnfollowableStreamError) rather than pass unread. A server
 * that does not speak RFB at all is let be.
 */
export class RfbServerCutter extends RfbCutter {
  private state: State = 'version';
  private rectsLeft = 0;
  private afterReason: State = 'type';
  /** A head's first byte, read before the client's choice said what it starts. */
  private carry: Buffer | null = null;

  constructor(
    rules: ClipboardRules,
    private readonly stream: RfbStreamState,
  ) {
    super(rules, 12);
  }

  protected afterMessage(): Step {
    this.state = 'type';
    return { out: null, need: 1 };
  }

  private read(out: Buffer, state: State, need: number, keep = 0): Step {
    this.state = state;
    return { out, need, keep };
  }

  protected next(part: Buffer): Step {
    const cut = this.cutStep(part);
    if (cut) return cut;
    const head = this.carry ? Buffer.concat([this.carry, part]) : part;
    this.carry = null;
    switch (this.state) {
      case 'version':
        if (rfbMinor(head) === null) {
          this.stream.kind = 'other';
          return { out: head, need: 0 };
        }
        this.stream.kind = 'rfb';
        return this.security(head);
      case 'security33': {
        const chosen = this.chosen(head.readUInt32BE(0));
        return { ...chosen, out: head };
      }
      case 'securityCount':
        if (head[0] === 0) return this.reason(head, 'type');
        return this.read(head, 'securityTypes', head[0]);
      case 'securityTypes':
        // What follows depends on the client's choice, which comes after the list.
        return this.read(head, 'afterTypes', 1);
      case 'afterTypes':
        this.carry = head;
        return this.chosen(this.stream.security);
      case 'challenge':
        return this.read(head, 'result', 4);
      case 'result':
        if (head.readUInt32BE(0) === 0) return this.read(head, 'serverInit', 24);
        // 3.8 says why; before it, the server just closes.
        if (this.stream.clientMinor === 8) return this.reason(head, 'type');
        return { out: head, need: 0 };
      case 'reasonLength':
        return { ...this.read(head, this.afterReason, 1), keep: head.readUInt32BE(0) };
      case 'serverInit':
        this.stream.bytesPerPixel ??= head[4] / 8;
        return this.read(head, 'type', 1, head.readUInt32BE(20));
      case 'type':
        return this.type(head);
      case 'head':
        return this.variable(head);
      case 'rect':
        return this.rectangle(head);
      case 'length':
        return this.rectDone(head, head.readUInt32BE(0));
      case 'screens':
        return this.rectDone(head, 16 * head[0]);
    }
  }

  /** After the server's version: the security step the client's version leads to. */
  private security(version: Buffer): Step {
    const minor = this.stream.clientMinor;
    // The client answers the version before the server goes on; not yet seen: not RFB as known.
    if (minor === 3) return this.read(version, 'security33', 4);
    return this.read(version, 'securityCount', 1);
  }

  /** What the chosen security type starts (its first byte in `carry` when it was read). */
  private chosen(security: number | null): Step {
    const read = (state: State, need: number): Step => {
      this.state = state;
      return { out: null, need: need - (this.carry?.length ?? 0) };
    };
    if (security === SECURITY_VNC) return read('challenge', 16);
    if (security === SECURITY_NONE)
      return this.stream.clientMinor === 7 ? read('serverInit', 24) : read('result', 4);
    if (security === 0 && !this.carry) return this.reason(Buffer.alloc(0), 'type');
    throw new UnfollowableStreamError(`RFB security type ${security} cannot be followed`);
  }

  private reason(head: Buffer, after: State): Step {
    this.afterReason = after;
    return this.read(head, 'reasonLength', 4);
  }

  private type(head: Buffer): Step {
    const type = head[0];
    const fixed = FIXED[type];
    if (fixed) return { ...this.afterMessage(), out: head, keep: fixed - 1 };
    const size = HEAD[type];
    if (size === undefined) throw new UnfollowableStreamError(`RFB server message ${type}`);
    this.state = 'head';
    this.carry = head;
    return { out: null, need: size - 1 };
  }

  private variable(head: Buffer): Step {
    switch (head[0]) {
      case 0:
        this.rectsLeft = head.readUInt16BE(2);
        return this.rects(head);
      case 1: // SetColourMapEntries: 6 bytes per colour
        return { ...this.afterMessage(), out: head, keep: 6 * head.readUInt16BE(4) };
      case 3:
        return this.cutText(head);
      default: // ServerFence
        return { ...this.afterMessage(), out: head, keep: head[8] };
    }
  }

  private rects(out: Buffer, keep = 0): Step {
    if (this.rectsLeft === 0) return { ...this.afterMessage(), out, keep };
    this.rectsLeft--;
    return this.read(out, 'rect', RECT_HEAD, keep);
  }

  private rectDone(out: Buffer, keep: number): Step {
    return this.rects(out, keep);
  }

  /** A rectangle's head: x, y, width, height (u16), encoding (s32); its data measured. */
  private rectangle(head: Buffer): Step {
    const width = head.readUInt16BE(4);
    const height = head.readUInt16BE(6);
    const encoding = head.readInt32BE(8);
    const bpp = this.stream.bytesPerPixel;
    if (bpp === null) throw new UnfollowableStreamError('a framebuffer update before ServerInit');
    switch (encoding) {
      case 0: // Raw
        return this.rects(head, width * height * bpp);
      case 1: // CopyRect
        return this.rects(head, 4);
      case -239: // Cursor: pixels, then a bitmask of whole bytes per row
        return this.rects(head, width * height * bpp + Math.ceil(width / 8) * height);
      case 16: // ZRLE: u32 length, zlib data
      case -307: // DesktopName: u32 length, name
        return this.read(head, 'length', 4);
      case -308: // ExtendedDesktopSize: screens (u8), 3 padding, 16 per screen
        return this.read(head, 'screens', 4);
      case -224: // LastRect: the update ends here
        this.rectsLeft = 0;
        return this.rects(head);
      case -223: // DesktopSize
      case -258: // QEMU extended key events acknowledged
        return this.rects(head);
      default:
        throw new UnfollowableStreamError(`RFB encoding ${encoding} cannot be measured`);
    }
  }
}
