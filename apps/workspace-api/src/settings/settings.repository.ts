import type { Database, TransactionOptions, Tx } from '../db';
import { policyOfRow } from '../domain';
import { rowTarget } from '../file-mappings';
import { GROUP_POLICY_SWITCHES, type GroupPolicy } from '../groups';
import { WORKSPACE_POLICY_FIELDS, type WorkspacePolicy } from '../images';
import { createRepositories } from '../repositories';
import { createSsoRepository } from '../sso';
import type { SettingsChange } from './settings-changes';
import type { CurrentSettings } from './settings-current';

/** A row the plan counted on went away during the apply (an API call outside the apply's lock). */
function present<T>(row: T | null | false, change: SettingsChange): T {
  if (row === null || row === false) {
    throw new Error(`The ${change.entity} "${change.key}" changed during the apply; apply again`);
  }
  return row;
}

/**
 * The settings' data: one snapshot of what the settings file covers (zones, agents, workspaces,
 * groups, users, file mappings) and the writes of a plan, each inside the apply's one
 * transaction, through the repository of each resource. Its own query is the advisory lock that
 * serializes applies.
 */
export function createSettingsRepository(database: Database) {
  const lockKey = `workspace-api settings apply ${database.schema}`;
  const {
    zones,
    agents,
    images,
    groups,
    users,
    fileMappings: mappings,
    staging,
  } = createRepositories(database);
  const sso = createSsoRepository(database);

  /** The settings as stored. Users only where needed: those named (by username) and those with mappings. */
  async function readCurrent(tx: Tx, usernames: readonly string[]): Promise<CurrentSettings> {
    const [zoneRows, agentRows, imageRows, groupRows, mappingRows, stagingRows, ssoRows] =
      await Promise.all([
        zones.list(tx),
        agents.list(tx),
        images.listBySettingsName(tx),
        groups.listByName(tx),
        mappings.list(null, tx),
        staging.list(tx),
        sso.list(tx),
      ]);
    const mapped = new Set(mappingRows.flatMap((m) => (m.userId ? [m.userId] : [])));
    const userRows = await users.namedOrIn(usernames, [...mapped], tx);
    return {
      zones: zoneRows,
      agents: agentRows.map((a) => ({
        ...a,
        memory: Number(a.memory),
        memoryOverride: Number(a.memoryOverride),
      })),
      // Settings know a workspace by its settings name, which (unlike the image name) is unique.
      images: imageRows.map((row) => ({
        id: row.id,
        name: row.settingsName,
        persistentProfilePath: row.persistentProfilePath,
        idleLimitSeconds: row.idleLimitSeconds,
        idleAction: row.idleAction,
        ...(policyOfRow(row, WORKSPACE_POLICY_FIELDS) as WorkspacePolicy),
      })),
      groups: groupRows.map((row) => ({
        id: row.id,
        name: row.name,
        permissions: row.permissions,
        ...(policyOfRow(row, GROUP_POLICY_SWITCHES) as GroupPolicy),
      })),
      users: userRows,
      mappings: mappingRows.map((m) => ({ ...m, target: rowTarget(m) })),
      stagingConfigs: stagingRows,
      ssoProviders: ssoRows,
    };
  }

  /** Performs a plan's changes in order. Zones come before the agents that name them, so their ids are known. */
  async function writeChanges(
    tx: Tx,
    changes: readonly SettingsChange[],
    current: CurrentSettings,
  ): Promise<void> {
    const zoneIds = new Map(current.zones.map((z) => [z.name, z.id]));
    const groupIds = new Map(current.groups.map((g) => [g.name, g.id]));
    for (const change of changes) {
      const id = change.id ?? '';
      const remove = change.action === 'delete';
      switch (change.entity) {
        case 'zone': {
          if (remove) present(await zones.remove(id, tx), change);
          else {
            const row = change.id
              ? present(await zones.update(id, change.values, tx), change)
              : await zones.create(change.values, tx);
            zoneIds.set(row.name, row.id);
          }
          break;
        }
        case 'agent': {
          const { zone, ...values } = change.values;
          const fields = { ...values, zoneId: zoneIds.get(zone) ?? '' };
          if (remove) present(await agents.remove(id, tx), change);
          else if (change.id) present(await agents.update(id, fields, tx), change);
          // An engine agent's resources come from its heartbeat; until then it offers nothing.
          else
            await agents.create(
              { ...fields, cores: fields.cores ?? 0, memory: fields.memory ?? 0 },
              tx,
            );
          break;
        }
        case 'workspace': {
          // The one bigint column: a file's limit is a number the API's schema keeps below 2^53.
          const { maxUploadBytes: bytes, ...values } = change.values;
          const maxUploadBytes = bytes === undefined || bytes === null ? bytes : BigInt(bytes);
          present(await images.update(id, { ...values, maxUploadBytes }, tx), change);
          break;
        }
        case 'group':
          await groups.update(tx, id, change.values);
          break;
        case 'file_mapping':
          if (remove) present(await mappings.remove(id, tx), change);
          else if (change.id) present(await mappings.update(id, change.values, tx), change);
          else await mappings.create(change.target, change.values, tx);
          break;
        case 'staging': {
          const { zone, ...values } = change.values;
          if (remove) present(await staging.remove(id, tx), change);
          else if (change.id) present(await staging.update(id, values, tx), change);
          else
            await staging.create(
              { ...values, imageId: change.target.id, zoneId: zoneIds.get(zone) ?? '' },
              tx,
            );
          break;
        }
        case 'sso_provider': {
          if (remove) present(await sso.remove(change.key, tx), change);
          else {
            const { mappings, ...values } = change.values;
            const byId = mappings.map((m) => ({
              value: m.value,
              groupId: groupIds.get(m.group) ?? '',
            }));
            await sso.save({ ...values, mappings: byId }, tx);
          }
          break;
        }
      }
    }
  }

  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions) =>
      database.transaction(work, options),
    /** Held until the transaction ends: the next apply waits for this one's commit. */
    async lockApplies(tx: Tx): Promise<void> {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${lockKey}))`;
    },
    readCurrent,
    writeChanges,
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
