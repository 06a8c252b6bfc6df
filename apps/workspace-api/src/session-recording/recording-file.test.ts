import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChunkType, readChunks, type RecordingMeta } from './recording-file';
import { createRecordingVerifier, verifyRecording } from './recording-verifier';
import { openRecordingWriter } from './recording-writer';

const META: RecordingMeta = {
  format: 1,
  kasmId: '00000000-0000-4000-8000-000000000001',
  userId: null,
  username: 'ada',
  imageId: null,
  startedAt: '2027-01-03T00:00:00.000Z',
  width: 4,
  height: 2,
  keystrokes: false,
  signed: false,
};

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'recording-file-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

async function record(key: Buffer | null, chunks = 20) {
  const file = path.join(dir, 'a.rec');
  const writer = await openRecordingWriter({
    file,
    meta: META,
    key,
    onError: (e) => {
      throw e;
    },
  });
  for (let i = 0; i < chunks; i++)
    writer.append({ type: ChunkType.server, at: i * 10, payload: Buffer.alloc(i * 40, i) });
  writer.append({ type: ChunkType.end, at: 500, payload: Buffer.from('{"reason":"ended"}') });
  const progress = await writer.close();
  return { file, progress, bytes: await readFile(file) };
}

describe('the recording file', () => {
  it('verifies as written, its last link the digest the writer reported, chunks read back whole', async () => {
    const { bytes, progress } = await record(null);
    const verified = verifyRecording(bytes, null, progress.digest);
    expect(verified).toMatchObject({ ok: true, chunks: 21, digest: progress.digest, ended: true });
    expect(progress.bytes).toBe(bytes.length);
    const chunks = [...readChunks(bytes)];
    expect(chunks).toHaveLength(21);
    expect(chunks[19]).toEqual({ type: ChunkType.server, at: 190, payload: Buffer.alloc(760, 19) });
  });

  it('detects a flipped byte anywhere: header, head, payload or link', async () => {
    const { bytes } = await record(null);
    for (const offset of [3, 20, 40, 200, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[offset] ^= 0x01;
      expect(verifyRecording(changed, null).ok).toBe(false);
    }
  });

  it('detects a tail cut off at a chunk boundary by the digest the database keeps', async () => {
    const { bytes, progress } = await record(null, 3);
    const chunks = [...readChunks(bytes)];
    const lastChunk = 12 + chunks[3].payload.length + 32;
    const cut = bytes.subarray(0, bytes.length - lastChunk);
    expect(verifyRecording(cut, null).ok).toBe(true);
    expect(verifyRecording(cut, null, progress.digest)).toMatchObject({
      ok: false,
      reason: 'the file ends elsewhere than its recorded digest',
    });
  });

  it('under a server key, a chain recomputed without the key does not verify', async () => {
    const key = Buffer.alloc(32, 7);
    const { bytes, file } = await record(key);
    expect(verifyRecording(bytes, key).ok).toBe(true);
    expect(verifyRecording(bytes, null).ok).toBe(false);
    await writeFile(file, bytes);
    expect(verifyRecording(bytes, Buffer.alloc(32, 8)).ok).toBe(false);
  });

  it('keeps what reached the disk when the process stops mid-write: a torn last chunk fails alone', async () => {
    const { bytes } = await record(null, 5);
    const torn = bytes.subarray(0, bytes.length - 10);
    expect(verifyRecording(torn, null)).toMatchObject({ ok: false, chunks: 5 });
    expect([...readChunks(torn)]).toHaveLength(5);
  });

  it('verifies the same in pieces as whole (a download streamed): good, flipped and torn files alike', async () => {
    const { bytes, progress } = await record(null, 8);
    const flipped = Buffer.from(bytes);
    flipped[300] ^= 0x04;
    for (const file of [bytes, flipped, bytes.subarray(0, bytes.length - 10), bytes.subarray(0, 9)])
      for (const size of [1, 7, 64, 4096]) {
        const verifier = createRecordingVerifier(null);
        for (let at = 0; at < file.length; at += size) verifier.push(file.subarray(at, at + size));
        const streamed = verifier.finish(progress.digest);
        expect(streamed.verified).toEqual(verifyRecording(file, null, progress.digest));
        expect(streamed.bytes).toBe(file.length);
      }
  });
});
