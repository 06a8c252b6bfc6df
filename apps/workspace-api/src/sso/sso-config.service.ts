import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toWireId } from '@platform/schemas';
import { isUniqueViolation, recordedChange, type AuditRecorder, type Tx } from '../db';
import { SsoProviderExistsError, SsoProviderNotFoundError } from '../errors';
import type { GroupsRepository } from '../groups';
import { kindProblems, secretProblems, settingsProblems, type ProviderConfig } from './sso-config';
import type { SsoProviderRow, SsoRepository } from './sso.repository';

/** A provider on the wire and in the audit trail: its kind's block holds secrets by reference only. */
export function toSsoProviderResponse(row: SsoProviderRow) {
  return {
    name: row.name,
    kind: row.kind,
    display_name: row.displayName,
    enabled: row.enabled,
    [row.kind]: row.settings,
    group_mappings: row.mappings.map((m) => ({
      value: m.value,
      group_id: toWireId(m.groupId),
      group_name: m.groupName,
    })),
    updated: row.updatedAt.toISOString(),
  };
}
export type SsoProviderResponse = ReturnType<typeof toSsoProviderResponse>;

const invalid = (problems: FieldProblem[]) =>
  withFieldErrors(new ValidationFailedError('The identity provider is not valid'), problems);

/**
 * Configuring identity providers from the API and the console (the settings file writes through
 * the same repository): each change with its audit event in one transaction, and "test this
 * configuration", which reports every problem at once and saves nothing.
 */
export function createSsoConfigService({
  sso,
  groups,
}: {
  sso: SsoRepository;
  groups: Pick<GroupsRepository, 'listByName'>;
}) {
  /** The mappings with their groups' ids, and every mapping naming no group. */
  async function resolveMappings(config: ProviderConfig, tx?: Tx) {
    const known = await (tx ? groups.listByName(tx) : sso.transaction((t) => groups.listByName(t)));
    const problems: FieldProblem[] = [];
    const mappings = config.mappings.flatMap((m, i) => {
      const group = known.find((g) =>
        m.groupName !== undefined
          ? g.name === m.groupName
          : toWireId(g.id) === toWireId(m.groupId ?? ''),
      );
      if (group) return [{ value: m.value, groupId: group.id }];
      const byName = m.groupName !== undefined;
      problems.push({
        field: `group_mappings[${i}].${byName ? 'group' : 'group_id'}`,
        message: byName
          ? `no group is named "${m.groupName}"`
          : `no group has group_id ${m.groupId}`,
      });
      return [];
    });
    return { mappings, problems };
  }

  const snapshot = (name: string) => async (tx: Tx) => {
    const row = await sso.byName(name, tx);
    return row && toSsoProviderResponse(row);
  };

  /** Checks what needs no reading, then saves in `tx`; a problem refuses the whole change. */
  async function save(config: ProviderConfig, tx: Tx) {
    const checked = settingsProblems(config);
    const { mappings, problems } = await resolveMappings(config, tx);
    if (checked.problems.length + problems.length > 0)
      throw invalid([...checked.problems, ...problems]);
    const { name, kind, displayName, enabled } = config;
    const settings = config.blocks[kind] as object;
    await sso.save({ name, kind, displayName, enabled, settings, mappings }, tx);
  }

  async function existing(name: string, tx: Tx) {
    const row = await sso.byName(name, tx);
    if (!row) throw new SsoProviderNotFoundError(name);
    return row;
  }

  return {
    list: async () => (await sso.list()).map(toSsoProviderResponse),

    async find(name: string) {
      const row = await sso.byName(name);
      if (!row) throw new SsoProviderNotFoundError(name);
      return toSsoProviderResponse(row);
    },

    /**
     * Every problem of a configuration, found at once, nothing saved: the schema's, each
     * referenced secret that cannot be read, each mapping to no group, and the kind's own checks
     * (an OpenID provider's discovery read and its issuer compared).
     */
    async test(config: ProviderConfig): Promise<FieldProblem[]> {
      const checked = settingsProblems(config);
      const [mappings, secrets, kind] = await Promise.all([
        resolveMappings(config),
        secretProblems(config.kind, config.blocks[config.kind]),
        checked.checkable ? kindProblems(config.kind, checked.checkable) : [],
      ]);
      return [...checked.problems, ...secrets, ...kind, ...mappings.problems];
    },

    /** With `audit` (here and below), the API's or console's event is written in the change's transaction. */
    create: (config: ProviderConfig, audit?: AuditRecorder | null) =>
      recordedChange(sso.transaction, audit, {
        change: async (tx) => {
          if (await sso.byName(config.name, tx)) throw new SsoProviderExistsError(config.name);
          await save(config, tx);
        },
        after: snapshot(config.name),
      }).catch((error: unknown) => {
        // Two creates of one name at once: the second meets the first's row.
        if (isUniqueViolation(error)) throw new SsoProviderExistsError(config.name);
        throw error;
      }),

    /** Replaces a provider's settings and mappings whole; its name stays. */
    update: (config: ProviderConfig, audit?: AuditRecorder | null) =>
      recordedChange(sso.transaction, audit, {
        before: snapshot(config.name),
        change: async (tx) => {
          await existing(config.name, tx);
          await save(config, tx);
        },
        after: snapshot(config.name),
      }),

    setEnabled: (name: string, enabled: boolean, audit?: AuditRecorder | null) =>
      recordedChange(sso.transaction, audit, {
        before: snapshot(name),
        change: async (tx) => {
          const row = await existing(name, tx);
          const { name: kept, kind, displayName } = row;
          const settings = row.settings as object;
          const mappings = row.mappings.map(({ value, groupId }) => ({ value, groupId }));
          await sso.save({ name: kept, kind, displayName, enabled, settings, mappings }, tx);
        },
        after: snapshot(name),
      }),

    /** Its users stay, with no way to sign in through it. */
    remove: (name: string, audit?: AuditRecorder | null) =>
      recordedChange(sso.transaction, audit, {
        before: snapshot(name),
        change: async (tx) => {
          await existing(name, tx);
          await sso.remove(name, tx);
        },
      }),
  };
}
export type SsoConfigService = ReturnType<typeof createSsoConfigService>;
