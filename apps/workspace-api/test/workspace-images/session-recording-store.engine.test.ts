import { access, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseExposition, sampleSum } from '@platform/metrics';
import { toWireId } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { digestOf, verifyRecordingStream } from '../../src/session-recording';
import { closeWorld } from '../engine/session-fixture';
import { S3_BUCKET, startTestS3, type TestS3 } from '../s3-server';
import {
  finished,
  launch,
  LONG,
  METRICS_TOKEN,
  type Recorded,
  recordedWorld,
  recordingOf,
  setPolicy,
} from './recorded-world';

// A real desktop recorded with an S3-compatible store configured (docs/recording.md#storage):
// written locally while the session runs, moved to the store (s3rver, started here, behind a
// SigV4 check) when it ends, read and removed through it; a store that is down keeps the file.
jest.setTimeout(6 * LONG);

let s3: TestS3;
let r: Recorded;
beforeAll(async () => {
  s3 = await startTestS3();
  r = await recordedWorld(s3.env({ RECORDINGS_S3_PREFIX: 'sessions/' }));
  await setPolicy(r, { record_sessions: true, recording_retention_days: 30 });
});
afterAll(async () => {
  await closeWorld(r?.w);
  await s3?.close();
  if (r) await rm(r.dir, { recursive: true, force: true });
});

const store = () => s3.client();

/** The session's recording once it is on disk (a first flush), while the session runs. */
const underWay = (kasmId: string) =>
  waitFor(async () => {
    const row = await recordingOf(r, kasmId);
    if (!row?.digest) throw new Error('no recording on disk yet');
    return row;
  }, LONG);

const uploaded = (kasmId: string) =>
  waitFor(async () => {
    const row = await recordingOf(r, kasmId);
    if (!row?.uploadedAt) throw new Error(`not in the store yet (${row?.uploadError})`);
    return row;
  }, LONG);

async function destroy(kasmId: string) {
  expect((await r.w.h.call('destroy_kasm', { kasm_id: kasmId })).statusCode).toBe(200);
}

async function failedUploads() {
  const res = await r.w.h.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return sampleSum(parseExposition(res.body), 'workspace_recording_uploads_total', {
    outcome: 'failed',
  });
}

it('writes locally while the session runs, moves the ended recording to the store verified, serves it from there, and retention removes it', async () => {
  const { kasmId } = await launch(r);
  const running = await underWay(kasmId);
  const local = path.join(r.dir, running.path);
  await access(local);
  expect(running.uploadedAt).toBeNull();

  await destroy(kasmId);
  const row = await uploaded(kasmId);
  expect(row).toMatchObject({ status: 'complete', storeBucket: S3_BUCKET });
  expect(row.storeKey).toBe(`sessions/${row.path}`);
  await expect(access(local)).rejects.toThrow();

  // The object, read straight from the store: its bytes' digest and its chain hold.
  const object = { bucket: S3_BUCKET, key: row.storeKey ?? '' };
  const read = await verifyRecordingStream((await store().get(object)).body, null, row.digest);
  expect(read.verified).toMatchObject({ ok: true, ended: true, chunks: row.chunks });
  expect(read.sha256.toString('hex')).toBe(row.sha256);
  expect(read.bytes).toBe(Number(row.bytes));

  const res = await r.w.h.call('get_recording', { recording_id: toWireId(row.id) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['repr-digest']).toBe(`sha-256=:${read.sha256.toString('base64')}:`);
  expect(res.headers['x-recording-digest']).toBe(row.digest);
  expect(await digestOf([res.rawPayload])).toEqual({ bytes: read.bytes, sha256: row.sha256 });
  const verified = await r.w.h.call('verify_recording', { recording_id: toWireId(row.id) });
  expect(verified.json()).toMatchObject({ ok: true, ended: true, digest: row.digest });

  await r.w.h.db.recording.update({ where: { id: row.id }, data: { expiresAt: new Date(0) } });
  await waitFor(async () => {
    expect(await recordingOf(r, kasmId)).toBeNull();
  }, LONG);
  await expect(store().get(object)).rejects.toThrow(/not in the store/);
});

it('keeps the recording in RECORDINGS_DIR while the store is down, counted, and uploads it when the store returns', async () => {
  const before = await failedUploads();
  const { kasmId } = await launch(r);
  const running = await underWay(kasmId);
  await s3.stop();
  try {
    await destroy(kasmId);
    const row = await finished(r, kasmId);
    await waitFor(async () => {
      expect(await failedUploads()).toBeGreaterThan(before);
    }, LONG);
    const failed = await recordingOf(r, kasmId);
    expect(failed).toMatchObject({ uploadedAt: null, storeKey: null });
    expect(failed?.uploadAttempts).toBeGreaterThanOrEqual(1);
    await access(path.join(r.dir, row.path));
  } finally {
    await s3.start();
  }
  // Its next try is due now rather than after its backoff: the store is back.
  await r.w.h.db.recording.updateMany({
    where: { id: running.id },
    data: { uploadAfter: new Date() },
  });
  const row = await uploaded(kasmId);
  expect(row.uploadError).toBeNull();
  await expect(access(path.join(r.dir, row.path))).rejects.toThrow();
  const read = await verifyRecordingStream(
    (await store().get({ bucket: S3_BUCKET, key: row.storeKey ?? '' })).body,
    null,
    row.digest,
  );
  expect(read.verified.ok).toBe(true);
});
