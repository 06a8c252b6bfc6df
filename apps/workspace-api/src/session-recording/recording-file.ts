import { createHash, createHmac } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The recording file (docs/recording.md, "The file"): append-only, read front to back.
 *
 *   header: MAGIC (8) | meta length (u32 BE) | meta (JSON, UTF-8)
 *   chunk:  length (u32 BE) | type (u8) | flags (u8) | 0 (u16) | time (u32 BE, ms since start)
 *           | payload (length bytes; deflate-raw when flags & 1) | link (32)
 *
 * Each chunk's link is SHA-256 (or HMAC-SHA-256 under the server's key) of the previous link,
 * its 12 head bytes and its stored payload; the header's own hash starts the chain. Changing,
 * removing or reordering any byte breaks every later link, and the last link is kept in the
 * database as the recording's digest, so cutting the tail off shows too.
 */
export const MAGIC = Buffer.from('WPREC01\n', 'latin1');
export const HEAD = 12;
export const LINK = 32;
const DEFLATED = 1;
/** Payloads smaller than this are stored as they are: deflate would gain little and cost a call. */
const DEFLATE_FROM = 256;

export const ChunkType = {
  /** RFB bytes from the server, in order (the first: a handshake and ServerInit for playback). */
  server: 1,
  /** A whole screen as one FramebufferUpdate: playback may start here. */
  keyframe: 2,
  /** A KeyEvent a viewer sent (only when the policy records keystrokes). */
  key: 3,
  /** A PointerEvent a viewer sent. */
  pointer: 4,
  /** The recording's end: its payload says why, as JSON. */
  end: 5,
} as const;
export type ChunkType = (typeof ChunkType)[keyof typeof ChunkType];

export interface RecordingMeta {
  format: 1;
  kasmId: string;
  userId: string | null;
  username: string;
  imageId: string | null;
  startedAt: string;
  width: number;
  height: number;
  keystrokes: boolean;
  /** Whether the chain is an HMAC under the server's key (else plain SHA-256). */
  signed: boolean;
}

export interface Chunk {
  type: number;
  /** Milliseconds since the recording started. */
  at: number;
  payload: Buffer;
}

export const hasher = (key: Buffer | null) => () =>
  key ? createHmac('sha256', key) : createHash('sha256');

/** The header's bytes and the chain's first link. */
export function encodeHeader(meta: RecordingMeta, key: Buffer | null) {
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  const bytes = Buffer.concat([MAGIC, length, json]);
  return { bytes, link: hasher(key)().update(bytes).digest() };
}

/** One chunk's bytes and its link, chained to `previous`. */
export function encodeChunk(chunk: Chunk, previous: Buffer, key: Buffer | null) {
  const deflate = chunk.payload.length >= DEFLATE_FROM;
  const stored = deflate ? deflateRawSync(chunk.payload, { level: 1 }) : chunk.payload;
  const head = Buffer.alloc(HEAD);
  head.writeUInt32BE(stored.length, 0);
  head[4] = chunk.type;
  head[5] = deflate ? DEFLATED : 0;
  head.writeUInt32BE(Math.max(0, Math.min(0xffffffff, Math.round(chunk.at))), 8);
  const link = hasher(key)().update(previous).update(head).update(stored).digest();
  return { bytes: Buffer.concat([head, stored, link]), link };
}

/** The header of a recording file; throws when it is none. */
export function readHeader(file: Buffer): { meta: RecordingMeta; end: number } {
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC))
    throw new Error('not a recording file');
  const length = file.readUInt32BE(MAGIC.length);
  const end = MAGIC.length + 4 + length;
  if (end > file.length) throw new Error('the header is cut short');
  return { meta: JSON.parse(file.subarray(MAGIC.length + 4, end).toString('utf8')), end };
}

/** The chunks of a file (verify it first), payloads inflated. */
export function* readChunks(file: Buffer): Generator<Chunk> {
  let at = readHeader(file).end;
  while (at + HEAD <= file.length) {
    const length = file.readUInt32BE(at);
    const stop = at + HEAD + length;
    if (stop + LINK > file.length) return;
    const stored = file.subarray(at + HEAD, stop);
    const payload = file[at + 5] & DEFLATED ? inflateRawSync(stored) : stored;
    yield { type: file[at + 4], at: file.readUInt32BE(at + 8), payload };
    at = stop + LINK;
  }
}
