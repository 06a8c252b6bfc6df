import { toTimestamp, toWireId } from '@platform/schemas';
import type { KasmWithOwners } from './kasm-owners';
import { readTimeline } from './launch-timeline';
import { toWaitResponse, type WaitStatus } from './launch-wait-status';
import type { KasmResponse, KasmStatus } from './sessions.schemas';

const PROGRESS: Record<string, number> = {
  requested: 5,
  provisioning: 25,
  starting: 60,
  running: 100,
  stopping: 50,
  paused: 100,
  stopped: 100,
  destroyed: 100,
  error: 100,
};

/** The wire form of a session; it never carries the connect token or the container's password. */
export function toKasmResponse(row: KasmWithOwners): KasmResponse {
  return {
    kasm_id: toWireId(row.id),
    // A staged session has no user yet.
    user_id: row.userId === null ? '' : toWireId(row.userId),
    username: row.user.username,
    image_id: toWireId(row.imageId),
    image: {
      image_id: toWireId(row.image.id),
      name: row.image.name,
      friendly_name: row.image.friendlyName,
    },
    operational_status: row.status,
    operational_message: row.statusMessage,
    operational_progress: PROGRESS[row.status] ?? 0,
    server_id: toWireId(row.agent.id),
    hostname: row.agent.hostname,
    zone_name: row.agent.zone.name,
    container_id: row.containerId,
    cores: row.cores,
    memory: Number(row.memory),
    start_date: toTimestamp(row.startedAt),
    keepalive_date: toTimestamp(row.keepaliveAt),
    expiration_date: toTimestamp(row.expiresAt),
    created_date: toTimestamp(row.createdAt),
  };
}

/** get_kasm_status's answer: the session, its status fields at the top as Kasm has them, its link. */
export function toKasmStatus(
  found: { row: KasmWithOwners; kasmUrl: string | null } | { wait: WaitStatus },
  now: string,
): KasmStatus {
  const kasm = 'wait' in found ? toWaitResponse(found.wait) : toKasmResponse(found.row);
  return {
    kasm,
    kasm_id: kasm.kasm_id,
    status: kasm.operational_status,
    operational_status: kasm.operational_status,
    operational_message: kasm.operational_message,
    operational_progress: kasm.operational_progress,
    launch_timeline: 'wait' in found ? [] : readTimeline(found.row.launchTimeline),
    kasm_url: 'wait' in found ? null : found.kasmUrl,
    share_id: 'wait' in found ? null : (found.row.shareId ?? null),
    current_time: now,
  };
}
