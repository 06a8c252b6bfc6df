import { toTimestamp, toWireId } from '@platform/schemas';
import type { KasmWithOwners } from './kasm-owners';
import type { KasmResponse } from './sessions.schemas';

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
