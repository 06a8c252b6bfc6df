import { createHash } from 'node:crypto';
import { ChunkType, hasher, HEAD, LINK, MAGIC, type RecordingMeta } from './recording-file';

export type Verified =
  | {
      ok: true;
      meta: RecordingMeta;
      chunks: number;
      digest: string;
      durationMs: number;
      ended: boolean;
    }
  | { ok: false; reason: string; offset: number; chunks: number };

export interface VerifiedBytes {
  verified: Verified;
  /** How many bytes were read, and their SHA-256: what a copy of the file must match. */
  bytes: number;
  sha256: Buffer;
}

/**
 * Walks a recording's chain as its bytes arrive (a file read or an object downloaded in pieces):
 * every link recomputed, every payload's length within the bytes. Bytes wait only until the
 * header or chunk they belong to is whole, so a download is never held in memory whole. A file
 * that ends inside a chunk (a crash mid-write) fails at that chunk; everything before verified.
 */
export function createRecordingVerifier(key: Buffer | null) {
  const hash = hasher(key);
  const sha256 = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** What the next step needs whole before it can run. */
  let needed = MAGIC.length + 4;
  let offset = 0;
  let bytes = 0;
  let meta: RecordingMeta | null = null;
  let link = Buffer.alloc(0);
  let [chunks, durationMs, ended] = [0, 0, false];
  let failure: { reason: string; offset: number } | null = null;

  /** Bytes used from the front of `buf` (> 0), or minus the bytes it needs to go on. */
  function step(buf: Buffer): number {
    if (!meta) {
      if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a recording file');
      const end = MAGIC.length + 4 + buf.readUInt32BE(MAGIC.length);
      if (buf.length < end) return -end;
      meta = JSON.parse(buf.subarray(MAGIC.length + 4, end).toString('utf8')) as RecordingMeta;
      link = hash().update(buf.subarray(0, end)).digest();
      return end;
    }
    if (buf.length < HEAD) return -HEAD;
    const stop = HEAD + buf.readUInt32BE(0);
    if (buf.length < stop + LINK) return -(stop + LINK);
    const expected = hash().update(link).update(buf.subarray(0, stop)).digest();
    if (!expected.equals(buf.subarray(stop, stop + LINK)))
      throw new Error('a chunk does not match its link');
    link = expected;
    durationMs = buf.readUInt32BE(8);
    ended = buf[4] === ChunkType.end;
    chunks++;
    return stop + LINK;
  }

  function drain(): void {
    const buf = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    let at = 0;
    try {
      for (;;) {
        const used = step(buf.subarray(at));
        if (used < 0) {
          needed = -used;
          break;
        }
        at += used;
        offset += used;
      }
    } catch (error) {
      failure = { reason: (error as Error).message, offset };
    }
    pending = [buf.subarray(at)];
    pendingBytes = buf.length - at;
  }

  return {
    push(data: Buffer): void {
      bytes += data.length;
      sha256.update(data);
      if (failure) return;
      pending.push(data);
      pendingBytes += data.length;
      if (pendingBytes >= needed) drain();
    },

    /** What the bytes pushed hold; `expectedDigest`: the database's last link, which theirs must equal. */
    finish(expectedDigest?: string | null): VerifiedBytes {
      const read = { bytes, sha256: sha256.digest() };
      const failed = (reason: string, at: number) => ({
        ...read,
        verified: { ok: false as const, reason, offset: at, chunks },
      });
      if (failure) return failed(failure.reason, failure.offset);
      if (!meta)
        return failed(
          bytes < MAGIC.length + 4 ? 'not a recording file' : 'the header is cut short',
          0,
        );
      if (pendingBytes > 0) return failed('a chunk is cut short', offset);
      const digest = link.toString('hex');
      if (expectedDigest && expectedDigest !== digest)
        return failed('the file ends elsewhere than its recorded digest', offset);
      return { ...read, verified: { ok: true, meta, chunks, digest, durationMs, ended } };
    },
  };
}

/** Checks a whole recording file in memory (see createRecordingVerifier). */
export function verifyRecording(
  file: Buffer,
  key: Buffer | null,
  expectedDigest?: string | null,
): Verified {
  const verifier = createRecordingVerifier(key);
  verifier.push(file);
  return verifier.finish(expectedDigest).verified;
}

/** Checks a recording as it streams (a file or a stored object), with its bytes' SHA-256. */
export async function verifyRecordingStream(
  stream: AsyncIterable<Buffer>,
  key: Buffer | null,
  expectedDigest?: string | null,
): Promise<VerifiedBytes> {
  const verifier = createRecordingVerifier(key);
  for await (const piece of stream) verifier.push(piece);
  return verifier.finish(expectedDigest);
}
