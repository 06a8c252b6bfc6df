import { createHash, randomUUID } from 'node:crypto';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toWireId } from '@platform/schemas';
import { createHarness, type Harness } from '../../test/harness';
import { syntheticRecording } from '../../test/recording-factories';

// The recordings' API and retention against a real database and files the recorder's own writer
// made (the engine tests record real desktops: test/workspace-images/session-recording…).
let h: Harness;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'recordings-api-'));
  h = await createHarness({ RECORDINGS_DIR: dir });
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => h.reset());

const recorded = (options: Parameters<typeof syntheticRecording>[2] = {}) =>
  syntheticRecording(dir, h, options);

describe('get_recordings', () => {
  it('lists recordings newest first, filtered by session and time, for recordings.view only', async () => {
    const older = await recorded({
      startedAt: new Date('2027-01-01T10:00:00Z'),
      username: 'grace',
    });
    const newer = await recorded({ startedAt: new Date('2027-01-02T10:00:00Z') });
    const all = await h.call('get_recordings', {});
    expect(all.statusCode).toBe(200);
    expect(all.json().recordings.map((r: { recording_id: string }) => r.recording_id)).toEqual([
      toWireId(newer.id),
      toWireId(older.id),
    ]);
    expect(all.json().recordings[0]).toMatchObject({ status: 'complete', digest: newer.digest });
    const since = await h.call('get_recordings', { since: '2027-01-02T00:00:00Z' });
    expect(since.json().total).toBe(1);
    const bySession = await h.call('get_recordings', { kasm_id: toWireId(older.kasmId) });
    expect(bySession.json().recordings[0].username).toBe('grace');
    expect(
      (await h.call('get_recordings', {}, await h.issueKey(['sessions.view']))).statusCode,
    ).toBe(403);
    expect((await h.call('get_recordings', { since: 'yesterday' })).statusCode).toBe(400);
  });
});

describe('get_recording and verify_recording', () => {
  it('downloads the file with its digests, audited as viewed; verifies it; a flipped byte fails', async () => {
    const { id, file, digest } = await recorded();
    const viewer = await h.issueKey(['recordings.view']);
    const res = await h.call('get_recording', { recording_id: toWireId(id) }, viewer);
    expect(res.statusCode).toBe(200);
    const bytes = await readFile(file);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['x-recording-digest']).toBe(digest);
    const sha = createHash('sha256').update(bytes).digest('base64');
    expect(res.headers['repr-digest']).toBe(`sha-256=:${sha}:`);
    const log = await h.call('get_audit_log', { operation: 'recording_viewed' });
    expect(log.json().events[0]).toMatchObject({ result: 'success', channel: 'api' });

    const ok = await h.call('verify_recording', { recording_id: toWireId(id) }, viewer);
    expect(ok.json()).toMatchObject({
      ok: true,
      digest,
      chunks: 9,
      ended: true,
      duration_ms: 6000,
    });
    bytes[bytes.length - 40] ^= 1;
    await writeFile(file, bytes);
    const bad = await h.call('verify_recording', { recording_id: toWireId(id) }, viewer);
    expect(bad.json()).toMatchObject({ ok: false, reason: 'a chunk does not match its link' });
  });

  it('answers 404 for an unknown recording and one whose file is gone, 400 for a bad id', async () => {
    const missing = await h.call('get_recording', { recording_id: toWireId(randomUUID()) });
    expect(missing.statusCode).toBe(404);
    const { id, file } = await recorded();
    await rm(file);
    expect((await h.call('verify_recording', { recording_id: toWireId(id) })).statusCode).toBe(404);
    expect((await h.call('get_recording', { recording_id: 'nope' })).statusCode).toBe(400);
  });
});

describe('retention', () => {
  it('removes the files and rows of recordings past their days, and keeps the others', async () => {
    const past = await recorded({ expiresAt: new Date(Date.now() - 1000) });
    const kept = await recorded({ expiresAt: new Date(Date.now() + 86_400_000) });
    const forever = await recorded({ expiresAt: null });
    expect(await h.app.recordings.retention()).toBe(1);
    await expect(access(past.file)).rejects.toThrow();
    await access(kept.file);
    await access(forever.file);
    const ids = (await h.db.recording.findMany()).map((r) => r.id).sort();
    expect(ids).toEqual([kept.id, forever.id].sort());
  });
});
