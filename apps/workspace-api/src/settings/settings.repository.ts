import type { Database, TransactionOptions, Tx } from '../db';
import { rowTarget, targetColumns } from '../file-mappings/mapping-target';
import type { SettingsChange } from './changes';
import type { CurrentSettings } from './current';

/**
 * The settings' queries: one snapshot of what the settings file covers (zones, agents,
 * workspaces, groups, users, file mappings) and the writes of a plan, each inside the apply's
 * one transaction. Applies are serialized by a transaction-scoped advisory lock.
 */
export function createSettingsRepository(database: Database) {
  const lockKey = `workspace-api settings apply ${database.schema}`;
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions) =>
      database.transaction(work, options),
    /** Held until the transaction ends: the next apply waits for this one's commit. */
    async lockApplies(tx: Tx): Promise<void> {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${lockKey}))`;
    },
    readCurrent: readCurrentSettings,
    writeChanges,
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

/** The settings as stored. Users only where needed: those named (by username) and those with mappings. */
async function readCurrentSettings(tx: Tx, usernames: readonly string[]): Promise<CurrentSettings> {
  const [zones, agents, images, groups, users, mappings] = await Promise.all([
    tx.zone.findMany({ orderBy: { name: 'asc' } }),
    tx.agent.findMany({ orderBy: { hostname: 'asc' } }),
    tx.image.findMany({
      select: { id: true, settingsName: true, persistentProfilePath: true },
      orderBy: { settingsName: 'asc' },
    }),
    tx.group.findMany({ select: { id: true, name: true }, orderBy: { name: 'asc' } }),
    tx.user.findMany({
      where: { OR: [{ username: { in: [...usernames] } }, { fileMappings: { some: {} } }] },
      select: { id: true, username: true },
      orderBy: { username: 'asc' },
    }),
    tx.fileMapping.findMany({ orderBy: [{ destination: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    zones,
    agents: agents.map((a) => ({
      ...a,
      memory: Number(a.memory),
      memoryOverride: Number(a.memoryOverride),
    })),
    // Settings know a workspace by its settings name, which (unlike the image name) is unique.
    images: images.map(({ settingsName, ...image }) => ({ ...image, name: settingsName })),
    groups,
    users,
    mappings: mappings.map((m) => ({ ...m, target: rowTarget(m) })),
  };
}

/** Performs a plan's changes in order. Zones come before the agents that name them, so their ids are known. */
async function writeChanges(
  tx: Tx,
  changes: readonly SettingsChange[],
  current: CurrentSettings,
): Promise<void> {
  const zoneIds = new Map(current.zones.map((z) => [z.name, z.id]));
  for (const change of changes) {
    const where = { id: change.id ?? '' };
    const remove = change.action === 'delete';
    switch (change.entity) {
      case 'zone': {
        if (remove) await tx.zone.delete({ where });
        else {
          const data = change.values;
          const row = change.id
            ? await tx.zone.update({ where, data })
            : await tx.zone.create({ data });
          zoneIds.set(row.name, row.id);
        }
        break;
      }
      case 'agent': {
        const { zone, cores, memory, memoryOverride, ...rest } = change.values;
        const data = {
          ...rest,
          zoneId: zoneIds.get(zone) ?? '',
          cores,
          memory: memory === undefined ? undefined : BigInt(memory),
          memoryOverride: BigInt(memoryOverride),
        };
        if (remove) await tx.agent.delete({ where });
        else if (change.id) await tx.agent.update({ where, data });
        // An engine agent's resources come from its heartbeat; until then it offers nothing.
        else
          await tx.agent.create({
            data: { ...data, cores: cores ?? 0, memory: BigInt(memory ?? 0) },
          });
        break;
      }
      case 'workspace':
        await tx.image.update({ where, data: change.values });
        break;
      case 'file_mapping':
        if (remove) await tx.fileMapping.delete({ where });
        else if (change.id) await tx.fileMapping.update({ where, data: change.values });
        else
          await tx.fileMapping.create({
            data: { ...targetColumns(change.target), ...change.values },
          });
        break;
    }
  }
}
