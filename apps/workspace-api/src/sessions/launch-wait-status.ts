import { toTimestamp, toWireId } from '@platform/schemas';
import type { KasmOwners } from './kasm-owners';
import type { LaunchWaitRow, LaunchWaitsRepository } from './launch-waits.repository';
import type { KasmResponse } from './sessions.schemas';

/** A launch waiting its turn as get_kasm_status shows it: its place, its user and workspace. */
export interface WaitStatus {
  row: LaunchWaitRow;
  /** Launches before it in its replica's queue (0 while it fails or once its turn came). */
  ahead: number;
  username: string;
  image: { id: string; name: string; friendlyName: string };
}

/** Waits read with how many launches are before them and their owners' names. */
export function createWaitReads(
  waits: Pick<LaunchWaitsRepository, 'find' | 'ahead'>,
  owners: Pick<KasmOwners, 'users' | 'images'>,
) {
  return {
    async find(id: string, userId?: string): Promise<WaitStatus | null> {
      const row = await waits.find(id);
      if (!row || (userId !== undefined && row.userId !== userId)) return null;
      const [ahead, users, images] = await Promise.all([
        row.status === 'queued' ? waits.ahead(row) : 0,
        owners.users.ownersOf([row.userId]),
        owners.images.namesOf([row.imageId]),
      ]);
      const image = images.get(row.imageId);
      const user = users.get(row.userId);
      // Its user or workspace went meanwhile: the foreign keys take the wait with them.
      if (!image || !user) return null;
      return { row, ahead, username: user.username, image };
    },
  };
}
export type WaitReads = ReturnType<typeof createWaitReads>;

/** What a waiting launch says of itself: its place in the queue, or why its turn failed. */
export const waitMessage = ({ row, ahead }: Pick<WaitStatus, 'row' | 'ahead'>) =>
  row.status !== 'queued'
    ? row.statusMessage
    : `waiting: ${ahead} ${ahead === 1 ? 'launch' : 'launches'} ahead`;

/** The wire form of a waiting launch: a session with no agent, container or resources yet. */
export function toWaitResponse(wait: WaitStatus): KasmResponse {
  const { row } = wait;
  return {
    kasm_id: toWireId(row.id),
    user_id: toWireId(row.userId),
    username: wait.username,
    image_id: toWireId(row.imageId),
    image: {
      image_id: toWireId(wait.image.id),
      name: wait.image.name,
      friendly_name: wait.image.friendlyName,
    },
    operational_status: row.status,
    operational_message: waitMessage(wait),
    operational_progress: row.status === 'queued' ? 0 : 100,
    server_id: '',
    hostname: '',
    zone_name: '',
    container_id: null,
    cores: 0,
    memory: 0,
    start_date: null,
    keepalive_date: null,
    expiration_date: null,
    created_date: toTimestamp(row.createdAt),
  };
}
