import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recordingStoreOptions } from '../../src/config-recording-store';
import { createRecordingStore, digestOf, StoredObjectMissing } from '../../src/session-recording';
import { S3_SECRET, startTestS3, type TestS3 } from '../s3-server';

// The store client against a real S3 API on a loopback port (s3rver behind a SigV4 check).
const MIB = 1024 * 1024;
let s3: TestS3;
let dir: string;
beforeAll(async () => {
  s3 = await startTestS3();
  dir = await mkdtemp(path.join(tmpdir(), 'recording-store-'));
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const storeWith = (env: Record<string, string> = {}) => {
  const options = recordingStoreOptions({
    RECORDINGS_S3_REGION: 'us-east-1',
    RECORDINGS_S3_PREFIX: 'recordings/',
    RECORDINGS_S3_PATH_STYLE: true,
    RECORDINGS_S3_PART_MB: 5,
    RECORDINGS_S3_RETRY_SECONDS: 1,
    ...s3.env(),
    ...env,
  } as Parameters<typeof recordingStoreOptions>[0]);
  if (!options) throw new Error('no store');
  return createRecordingStore(options);
};

describe('the recording store', () => {
  it('uploads a large file in parts, streamed, and reads back the same bytes', async () => {
    const store = storeWith();
    const bytes = randomBytes(12 * MIB + 1234);
    const file = path.join(dir, 'large.rec');
    await writeFile(file, bytes);
    const target = { bucket: store.bucket, key: store.keyOf('2027/01/03/a-b.rec') };
    expect(target.key).toBe('recordings/2027/01/03/a-b.rec');
    s3.requests.length = 0;
    await store.put(target, file, {
      bytes: bytes.length,
      metadata: { sha256: 'x' },
      signal: new AbortController().signal,
    });
    // Three parts of at most 5 MiB, then the parts put together.
    expect(s3.requests.filter((r) => /^PUT .*partNumber=/.test(r))).toHaveLength(3);
    expect(s3.requests.some((r) => /^POST .*uploadId=/.test(r))).toBe(true);
    const back = await store.get(target);
    expect(back.bytes).toBe(bytes.length);
    expect(await digestOf(back.body)).toEqual({
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    await store.remove(target);
    await expect(store.get(target)).rejects.toBeInstanceOf(StoredObjectMissing);
    await store.remove(target);
    store.close();
  });

  it('is refused by the store under a wrong secret: the signature is checked', async () => {
    const store = storeWith({ RECORDINGS_S3_SECRET_ACCESS_KEY: `${S3_SECRET}-wrong` });
    const file = path.join(dir, 'small.rec');
    await writeFile(file, 'small');
    const target = { bucket: store.bucket, key: store.keyOf('small.rec') };
    const signal = new AbortController().signal;
    await expect(store.put(target, file, { bytes: 5, metadata: {}, signal })).rejects.toThrow();
    await expect(storeWith().get(target)).rejects.toBeInstanceOf(StoredObjectMissing);
    store.close();
  });
});
