import type { AuditedTransaction, Database, Tx } from '../db';

/** A provider as stored; `settings` is its kind's block, checked against the kind's schema. */
export interface SsoProviderRow {
  id: string;
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  settings: unknown;
  updatedAt: Date;
  /** Directory values that make the provider's users members of groups. */
  mappings: { value: string; groupId: string; groupName: string }[];
}

/** A provider as the settings file and the console write it; groups by id. */
export interface SsoProviderInput {
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  settings: object;
  mappings: { value: string; groupId: string }[];
}

const withMappings = {
  groupMappings: {
    select: { value: true, groupId: true, group: { select: { name: true } } },
    orderBy: [{ value: 'asc' as const }, { groupId: 'asc' as const }],
  },
};
type Found = {
  id: string;
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  settings: unknown;
  updatedAt: Date;
  groupMappings: { value: string; groupId: string; group: { name: string } }[];
};
const toRow = ({ groupMappings, ...provider }: Found): SsoProviderRow => ({
  ...provider,
  mappings: groupMappings.map((m) => ({
    value: m.value,
    groupId: m.groupId,
    groupName: m.group.name,
  })),
});

/** Every query of identity providers (`sso_provider`), their group mappings and identities. */
export function createSsoRepository(database: Database) {
  const { prisma } = database;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    transaction,

    async list(tx?: Tx): Promise<SsoProviderRow[]> {
      const rows = await (tx ?? prisma).ssoProvider.findMany({
        include: withMappings,
        orderBy: { name: 'asc' },
      });
      return rows.map(toRow);
    },

    async byName(name: string, tx?: Tx): Promise<SsoProviderRow | null> {
      const row = await (tx ?? prisma).ssoProvider.findUnique({
        where: { name },
        include: withMappings,
      });
      return row && toRow(row);
    },

    /** Creates or replaces a provider by name, its mappings with it; in `tx`. */
    async save(input: SsoProviderInput, tx: Tx): Promise<void> {
      const { mappings, settings, ...fields } = input;
      const data = { ...fields, settings: settings as object };
      const { id } = await tx.ssoProvider.upsert({
        where: { name: input.name },
        create: data,
        update: data,
        select: { id: true },
      });
      await tx.ssoGroupMapping.deleteMany({ where: { providerId: id } });
      if (mappings.length > 0)
        await tx.ssoGroupMapping.createMany({
          data: mappings.map((m) => ({ providerId: id, ...m })),
          skipDuplicates: true,
        });
    },

    /** Removes a provider; its users stay, with no way to sign in through it. */
    async remove(name: string, tx: Tx): Promise<boolean> {
      return (await tx.ssoProvider.deleteMany({ where: { name } })).count > 0;
    },

    async userOf(providerId: string, subject: string, tx?: Tx): Promise<string | null> {
      const row = await (tx ?? prisma).ssoIdentity.findUnique({
        where: { providerId_subject: { providerId, subject } },
        select: { userId: true },
      });
      return row?.userId ?? null;
    },

    /** The providers that have signed the user in (their identities' providers). */
    async providersOfUser(userId: string): Promise<string[]> {
      const rows = await prisma.ssoIdentity.findMany({
        where: { userId },
        select: { providerId: true },
      });
      return rows.map((r) => r.providerId);
    },

    async link(providerId: string, subject: string, userId: string, tx: Tx): Promise<void> {
      await tx.ssoIdentity.create({ data: { providerId, subject, userId } });
    },
  };
}
export type SsoRepository = ReturnType<typeof createSsoRepository>;
