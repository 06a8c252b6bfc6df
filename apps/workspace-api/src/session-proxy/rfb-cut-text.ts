import { constants, inflateSync } from 'node:zlib';
import { MessageCutter, type Step } from './message-cutter';

/** The Extended Clipboard pseudo-encoding and its flags (a negative cut text length). */
export const EXTENDED_CLIPBOARD = -1063131698;
const FORMAT_TEXT = 1 << 0;
const ACTION_CAPS = 1 << 24;
const ACTION_NOTIFY = 1 << 27;
const ACTION_PROVIDE = 1 << 28;
/** The 8 bytes of a cut text message before its text: type, 3 padding, s32 length. */
export const CUT_TEXT_HEAD = 8;

export type ClipboardDirection = 'up' | 'down';

/** A clipboard message kept from the other side: what is known of it, never its text. */
export interface ClipboardRefusal {
  direction: ClipboardDirection;
  /** The text's size (UTF-8 or Latin-1 bytes) when it is known. */
  bytes: number | null;
  reason: 'refused' | 'too_large' | 'unreadable';
}

/** One direction's clipboard policy, as a cutter enforces it. */
export interface ClipboardRules {
  direction: ClipboardDirection;
  allowed: boolean;
  /** Null: no limit. */
  maxBytes: number | null;
  onRefused: (refusal: ClipboardRefusal) => void;
}

type CutState = 'flags' | 'body' | null;

/**
 * An RFB stream's reader that polices its cut text messages (ClientCutText or ServerCutText):
 * a refused direction loses them all (the extended clipboard's notify and provide, which carry
 * or announce text; its caps, request and peek carry none and pass), and a text past the limit
 * is dropped (an extended provide is inflated to know its size, never past the limit).
 */
export abstract class RfbCutter extends MessageCutter {
  private cut: CutState = null;
  private cutFlags = 0;
  private cutHead: Buffer = Buffer.alloc(0);

  constructor(
    protected readonly rules: ClipboardRules,
    firstNeed: number,
  ) {
    super(firstNeed);
  }

  /** The step after a message: read the next type byte. */
  protected abstract afterMessage(): Step;

  /** `head` is a cut text's first 8 bytes. */
  protected cutText(head: Buffer): Step {
    const length = head.readInt32BE(4);
    if (length >= 0) {
      const refusal = this.legacyRefusal(length);
      if (!refusal) return { ...this.afterMessage(), out: head, keep: length };
      this.rules.onRefused(refusal);
      return { ...this.afterMessage(), out: null, drop: length };
    }
    if (-length < 4) return { ...this.afterMessage(), out: null, drop: -length };
    this.cut = 'flags';
    this.cutHead = head;
    return { out: null, need: 4 };
  }

  /** Whether `next` was given a part of a cut text; its step when so. */
  protected cutStep(part: Buffer): Step | null {
    if (this.cut === 'flags') return this.extendedFlags(part);
    if (this.cut === 'body') return this.extendedBody(part);
    return null;
  }

  private legacyRefusal(bytes: number): ClipboardRefusal | null {
    const { direction, allowed, maxBytes } = this.rules;
    if (!allowed) return { direction, bytes, reason: 'refused' };
    if (maxBytes !== null && bytes > maxBytes) return { direction, bytes, reason: 'too_large' };
    return null;
  }

  private extendedFlags(flags: Buffer): Step {
    const rest = -this.cutHead.readInt32BE(4) - 4;
    const head = Buffer.concat([this.cutHead, flags]);
    this.cutFlags = flags.readUInt32BE(0);
    this.cut = null;
    // Caps list the actions a side supports (notify and provide among them) and carry no text.
    const caps = (this.cutFlags & ACTION_CAPS) !== 0;
    const carriesText = !caps && (this.cutFlags & (ACTION_NOTIFY | ACTION_PROVIDE)) !== 0;
    const { direction, allowed, maxBytes } = this.rules;
    if (!carriesText) return { ...this.afterMessage(), out: head, keep: rest };
    if (!allowed) {
      this.rules.onRefused({ direction, bytes: null, reason: 'refused' });
      return { ...this.afterMessage(), out: null, drop: rest };
    }
    if (maxBytes === null || (this.cutFlags & ACTION_PROVIDE) === 0)
      return { ...this.afterMessage(), out: head, keep: rest };
    // zlib never grows text by more than this: a longer body holds a text past the limit.
    if (rest > maxBytes + Math.ceil(maxBytes / 100) + 1024) {
      this.rules.onRefused({ direction, bytes: null, reason: 'too_large' });
      return { ...this.afterMessage(), out: null, drop: rest };
    }
    this.cutHead = head;
    if (rest === 0) return this.extendedBody(Buffer.alloc(0));
    this.cut = 'body';
    return { out: null, need: rest };
  }

  /** A provide's zlib body, read whole (it is under the limit): it passes if its text does. */
  private extendedBody(body: Buffer): Step {
    this.cut = null;
    const { direction, maxBytes } = this.rules;
    const size = providedTextSize(body, this.cutFlags, maxBytes ?? Infinity);
    if (typeof size === 'number' && size <= (maxBytes ?? Infinity))
      return { ...this.afterMessage(), out: Buffer.concat([this.cutHead, body]) };
    const refusal: ClipboardRefusal =
      size === 'unreadable'
        ? { direction, bytes: null, reason: 'unreadable' }
        : { direction, bytes: typeof size === 'number' ? size : null, reason: 'too_large' };
    this.rules.onRefused(refusal);
    return { ...this.afterMessage(), out: null };
  }
}

/**
 * The size of the text an extended provide carries (its NUL left out), inflating no more than
 * the limit allows: 'too_large' past it, 'unreadable' for a body that is not the format's.
 */
export function providedTextSize(
  body: Buffer,
  flags: number,
  maxBytes: number,
): number | 'too_large' | 'unreadable' {
  if ((flags & FORMAT_TEXT) === 0) return 0;
  let data: Buffer;
  try {
    const maxOutputLength = Number.isFinite(maxBytes) ? maxBytes + 1024 : undefined;
    // Senders flush rather than end their zlib stream (TigerVNC a sync flush, noVNC a full one):
    // a body is whole without zlib's final block.
    const finishFlush = constants.Z_SYNC_FLUSH;
    data = inflateSync(body, maxOutputLength ? { maxOutputLength, finishFlush } : { finishFlush });
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? 'too_large'
      : 'unreadable';
  }
  if (data.length < 4) return 'unreadable';
  const size = data.readUInt32BE(0);
  if (data.length < 4 + size) return 'unreadable';
  return size > 0 && data[4 + size - 1] === 0 ? size - 1 : size;
}
