import { UnfollowableStreamError } from './message-cutter';

/** What rewrites a binary message's bytes, frame by frame (a MessageCutter). */
export interface PayloadFilter {
  push(payload: Buffer): { out: Buffer[]; changed: boolean };
}

/** A frame is held whole before it goes on; a larger one ends the stream. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const OPCODE_CONTINUATION = 0x0;
const OPCODE_TEXT = 0x1;
const OPCODE_BINARY = 0x2;

/**
 * Reads one direction of a WebSocket (RFC 6455) frame by frame and passes each binary data
 * frame's payload through `filter`: a frame it left as it was goes on byte for byte; one it
 * changed is framed again (same FIN and opcode, masked with the same key when it was masked),
 * and a whole message left empty is left out. Control frames pass as they are; text frames
 * only on a stream `allowText` says is not the filter's. Compressed frames, and frames past
 * MAX_FRAME_BYTES, end the stream (UnfollowableStreamError).
 */
export class FrameRewriter {
  private pieces: Buffer[] = [];
  private piecesLength = 0;
  private headNeeded = 2;
  private frameLength: number | null = null;
  /** Whether the message that continuation frames continue is binary. */
  private messageBinary = false;

  constructor(
    private readonly filter: PayloadFilter,
    private readonly allowText: () => boolean,
  ) {}

  /** The bytes to send on for `chunk`: whole frames only. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      const wanted = (this.frameLength ?? this.headNeeded) - this.piecesLength;
      const take = Math.min(wanted, chunk.length - at);
      this.pieces.push(chunk.subarray(at, at + take));
      this.piecesLength += take;
      at += take;
      if (take < wanted) break;
      if (this.frameLength === null) this.readHead(out);
      else this.frameDone(out);
    }
    return out;
  }

  private held(): Buffer {
    if (this.pieces.length !== 1) this.pieces = [Buffer.concat(this.pieces)];
    return this.pieces[0];
  }

  private readHead(out: Buffer[]): void {
    const head = this.held();
    const length7 = head[1] & 0x7f;
    const extended = length7 === 126 ? 2 : length7 === 127 ? 8 : 0;
    const headLength = 2 + extended + (head[1] & 0x80 ? 4 : 0);
    if (head.length < headLength) {
      this.headNeeded = headLength;
      return;
    }
    let payload = length7;
    if (extended === 2) payload = head.readUInt16BE(2);
    if (extended === 8) {
      const big = head.readBigUInt64BE(2);
      payload = big > BigInt(MAX_FRAME_BYTES) ? Infinity : Number(big);
    }
    if (payload > MAX_FRAME_BYTES) throw new UnfollowableStreamError('a WebSocket frame too large');
    this.frameLength = headLength + payload;
    if (payload === 0) this.frameDone(out);
  }

  private frameDone(out: Buffer[]): void {
    const frame = this.held();
    const pieces = this.pieces;
    this.pieces = [];
    this.piecesLength = 0;
    this.frameLength = null;
    this.headNeeded = 2;
    const opcode = frame[0] & 0x0f;
    const data = opcode < 0x8;
    if (data && (frame[0] & 0x70) !== 0)
      throw new UnfollowableStreamError('a compressed WebSocket frame');
    if (opcode === OPCODE_BINARY) this.messageBinary = true;
    if (opcode === OPCODE_TEXT) this.messageBinary = false;
    const binary =
      opcode === OPCODE_BINARY || (opcode === OPCODE_CONTINUATION && this.messageBinary);
    if (!data || (!binary && this.allowText())) {
      out.push(...pieces);
      return;
    }
    if (!binary) throw new UnfollowableStreamError('a text WebSocket frame on an RFB stream');
    this.rewrite(frame, out);
  }

  private rewrite(frame: Buffer, out: Buffer[]): void {
    const masked = (frame[1] & 0x80) !== 0;
    const length7 = frame[1] & 0x7f;
    const headLength = 2 + (length7 === 126 ? 2 : length7 === 127 ? 8 : 0) + (masked ? 4 : 0);
    const mask = masked ? frame.subarray(headLength - 4, headLength) : null;
    const payload = mask ? unmask(frame.subarray(headLength), mask) : frame.subarray(headLength);
    const { out: kept, changed } = this.filter.push(payload);
    if (!changed) {
      out.push(frame);
      return;
    }
    const body = kept.length === 1 ? kept[0] : Buffer.concat(kept);
    const fin = (frame[0] & 0x80) !== 0;
    // A whole message with nothing left in it is no message; a fragment must stay in the chain.
    if (body.length === 0 && fin && (frame[0] & 0x0f) === OPCODE_BINARY) return;
    out.push(frameOf(frame[0], body, mask));
  }
}

function unmask(payload: Buffer, mask: Buffer): Buffer {
  const plain = Buffer.allocUnsafe(payload.length);
  for (let i = 0; i < payload.length; i++) plain[i] = payload[i] ^ mask[i & 3];
  return plain;
}

/** A frame with first byte `b0` (FIN and opcode) around `body`, masked with `mask` if given. */
export function frameOf(b0: number, body: Buffer, mask: Buffer | null): Buffer {
  const length = body.length;
  const extended = length < 126 ? 0 : length < 65536 ? 2 : 8;
  const headLength = 2 + extended + (mask ? 4 : 0);
  const frame = Buffer.allocUnsafe(headLength + length);
  frame[0] = b0;
  frame[1] = (mask ? 0x80 : 0) | (extended === 0 ? length : extended === 2 ? 126 : 127);
  if (extended === 2) frame.writeUInt16BE(length, 2);
  if (extended === 8) frame.writeBigUInt64BE(BigInt(length), 2);
  if (mask) {
    mask.copy(frame, headLength - 4);
    for (let i = 0; i < length; i++) frame[headLength + i] = body[i] ^ mask[i & 3];
  } else body.copy(frame, headLength);
  return frame;
}
