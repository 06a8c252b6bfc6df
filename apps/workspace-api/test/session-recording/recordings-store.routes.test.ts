import { createHash } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseExposition, sampleSum } from '@platform/metrics';
import { toWireId } from '@platform/schemas';
import { digestOf } from '../../src/session-recording';
import { captureLogs, createHarness, type Harness } from '../harness';
import { syntheticRecording } from '../recording-factories';
import { S3_BUCKET, S3_SECRET, startTestS3, type TestS3 } from '../s3-server';

// Recordings moved to an S3-compatible store (docs/recording.md#storage), read and removed
// through it: files the recorder's own writer made, a real S3 API (s3rver behind a SigV4 check).
// The engine test records a real desktop with the store: test/workspace-images/session-recording-store…
const TOKEN = 'metrics-token-for-recording-store-tests';
const logs = captureLogs();
let h: Harness;
let s3: TestS3;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'recordings-store-'));
  s3 = await startTestS3();
  h = await createHarness(
    {
      RECORDINGS_DIR: dir,
      METRICS_TOKEN: TOKEN,
      LOG_LEVEL: 'info',
      ...s3.env({ RECORDINGS_S3_PREFIX: 'rec/', RECORDINGS_S3_RETRY_SECONDS: '3600' }),
    },
    { logStream: logs.stream },
  );
});
afterAll(async () => {
  await h?.close();
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => h.reset());

const upload = () => {
  const run = h.app.recordings.upload;
  if (!run) throw new Error('no store configured');
  return run();
};
const store = () => s3.client();
async function uploads(outcome: string) {
  const res = await h.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  return sampleSum(parseExposition(res.body), 'workspace_recording_uploads_total', { outcome });
}

describe('an ended recording with a store configured', () => {
  it('is uploaded, read back and compared, recorded in its row, and its local file removed; the API reads it from the store', async () => {
    const { id, file, digest } = await syntheticRecording(dir, h);
    const bytes = await readFile(file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await upload();
    const row = await h.db.recording.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ storeBucket: S3_BUCKET, sha256, uploadAttempts: 0 });
    expect(row.storeKey).toBe(`rec/${row.path}`);
    await expect(access(file)).rejects.toThrow();
    const object = await store().get({ bucket: S3_BUCKET, key: row.storeKey ?? '' });
    expect(await digestOf(object.body)).toEqual({ bytes: bytes.length, sha256 });

    const listed = await h.call('get_recordings', {});
    expect(listed.json().recordings[0]).toMatchObject({ location: 'store', upload_error: null });
    const res = await h.call('get_recording', { recording_id: toWireId(id) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['repr-digest']).toBe(
      `sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`,
    );
    expect(res.headers['x-recording-digest']).toBe(digest);
    const verified = await h.call('verify_recording', { recording_id: toWireId(id) });
    expect(verified.json()).toMatchObject({ ok: true, digest, ended: true, duration_ms: 6000 });
    expect(await uploads('stored')).toBeGreaterThanOrEqual(1);
  });

  it('answers 404 when its object was removed from the store outside the service', async () => {
    const { id } = await syntheticRecording(dir, h);
    await upload();
    const row = await h.db.recording.findUniqueOrThrow({ where: { id } });
    await store().remove({ bucket: S3_BUCKET, key: row.storeKey ?? '' });
    const res = await h.call('verify_recording', { recording_id: toWireId(id) });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toMatch(/object in the store is gone/);
  });

  it('past its retention is removed from the store with its row', async () => {
    const past = await syntheticRecording(dir, h, { expiresAt: new Date(Date.now() + 60_000) });
    await upload();
    const row = await h.db.recording.findUniqueOrThrow({ where: { id: past.id } });
    await h.db.recording.update({ where: { id: past.id }, data: { expiresAt: new Date(0) } });
    expect(await h.app.recordings.retention()).toBe(1);
    await expect(store().get({ bucket: S3_BUCKET, key: row.storeKey ?? '' })).rejects.toThrow(
      /not in the store/,
    );
    expect(await h.db.recording.count({ where: { id: past.id } })).toBe(0);
  });

  it('stays in RECORDINGS_DIR while the store is down, counted, logged and audited without the secret, and is uploaded when it returns', async () => {
    await s3.stop();
    const failedBefore = await uploads('failed');
    const { id, file } = await syntheticRecording(dir, h);
    try {
      await upload();
      const row = await h.db.recording.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ uploadedAt: null, storeKey: null, uploadAttempts: 1 });
      expect(row.uploadError).toMatch(/ECONNREFUSED|connect/);
      await access(file);
      expect(await uploads('failed')).toBe(failedBefore + 1);
      const listed = await h.call('get_recordings', {});
      expect(listed.json().recordings[0]).toMatchObject({ location: 'local', upload_attempts: 1 });
      // Read from its file meanwhile.
      expect((await h.call('verify_recording', { recording_id: toWireId(id) })).json().ok).toBe(
        true,
      );
      const log = await h.call('get_audit_log', { operation: 'recording_upload_failed' });
      expect(log.json().events[0]).toMatchObject({
        result: 'failed',
        target: { type: 'recording', id: toWireId(id) },
      });
      expect(logs.text()).toContain('recording upload failed');
      expect(logs.text()).not.toContain(S3_SECRET);
      expect(JSON.stringify(log.json())).not.toContain(S3_SECRET);
      // Not tried again before its time (RECORDINGS_S3_RETRY_SECONDS: an hour).
      expect(row.uploadAfter?.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
      await upload();
      expect(await uploads('failed')).toBe(failedBefore + 1);
    } finally {
      await s3.start();
    }
    await h.db.recording.update({ where: { id }, data: { uploadAfter: new Date() } });
    await upload();
    const row = await h.db.recording.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ storeBucket: S3_BUCKET, uploadError: null });
    await expect(access(file)).rejects.toThrow();
  });
});
