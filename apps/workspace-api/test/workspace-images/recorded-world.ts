import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { installOwnWorkspaces } from './own-workspaces';

// A world whose Desktop workspace's sessions are recorded (docs/recording.md), for the
// recording engine tests: the policy, a launch, the session's recording row.
export const LONG = 120_000;
export const METRICS_TOKEN = 'metrics-token-for-recording-sessions-tests';

export interface Recorded {
  w: SessionWorld;
  origin: string;
  dir: string;
  imageId: string;
  userId: string;
}

export async function recordedWorld(env: Record<string, string>): Promise<Recorded> {
  const dir = await mkdtemp(path.join(tmpdir(), 'recordings-'));
  const w = await createSessionWorld({
    METRICS_TOKEN,
    RECORDINGS_DIR: dir,
    RECORDING_SCAN_MS: '200',
    RECORDING_KEYFRAME_SECONDS: '2',
    ...env,
  });
  const { origin, imageIds } = await installOwnWorkspaces(w, ['Desktop']);
  const { user_id: userId } = await w.member('ada');
  w.h.app.recordings.start();
  return { w, origin, dir, imageId: imageIds.Desktop, userId };
}

export async function setPolicy(r: Recorded, policy: Record<string, unknown>) {
  const res = await r.w.h.call('update_image', {
    target_image: { image_id: r.imageId, ...policy },
  });
  expect(res.statusCode).toBe(200);
  return res.json().image;
}

export async function launch(r: Recorded) {
  const { kasm_id: kasmId, kasm_url: kasmUrl } = await r.w.request({
    user_id: r.userId,
    image_id: r.imageId,
  });
  await r.w.waitForStatus(toUuid(kasmId), 'running');
  return { kasmId, kasmUrl };
}

export const recordingOf = (r: Recorded, kasmId: string) =>
  r.w.h.db.recording.findFirst({
    where: { kasmId: toUuid(kasmId) },
    orderBy: { startedAt: 'asc' },
  });

export async function finished(r: Recorded, kasmId: string) {
  return waitFor(async () => {
    const row = await recordingOf(r, kasmId);
    if (!row || row.status === 'recording') throw new Error(`the recording is ${row?.status}`);
    return row;
  }, LONG);
}
