import type { SessionPolicy } from './session-policy';
import { orNullWhenMissing, type AuditedTransaction, type Database, type Tx } from '../db';
import type { Image, Prisma } from '../generated/prisma/client';

export type ImageRow = Image;

/** An installed workspace's columns as a registry entry gives them (registry/image-from-entry.ts). */
export interface ImageFields {
  name: string;
  friendlyName: string;
  description: string;
  imageSrc: string;
  dockerRegistry: string;
  runConfig: object;
  execConfig: object;
  volumeMappings: object;
  architecture: string[];
  categories: string[];
  uncompressedSizeMb: number | null;
  cores: number;
  /** Bytes. */
  memory: bigint;
  gpuCount: number;
  cpuAllocationMethod: string;
  notes: string;
  registryId: string | null;
  registryEntryName: string | null;
}

/** What update_image and the settings file change; absent fields are left alone. */
export interface ImageChange {
  enabled?: boolean;
  friendlyName?: string;
  cores?: number;
  memory?: number;
  persistentProfilePath?: string;
  allowRootExec?: boolean;
  allowPlainHttp?: boolean;
  /** Null: no idle limit. */
  idleLimitSeconds?: number | null;
  idleAction?: string;
  allowUploads?: boolean;
  allowDownloads?: boolean;
  /** Null: no limit. */
  maxUploadBytes?: bigint | null;
  allowClipboardUp?: boolean;
  allowClipboardDown?: boolean;
  allowAudio?: boolean;
  allowAnonymousJoin?: boolean;
  recordSessions?: boolean;
  recordKeystrokes?: boolean;
  refuseUnrecorded?: boolean;
  /** Null: kept for ever. */
  recordingRetentionDays?: number | null;
  watchNotice?: boolean;
  /** Null: no limit. */
  maxClipboardBytes?: number | null;
}

const BY_NAME = [
  { friendlyName: 'asc' },
  { id: 'asc' },
] satisfies Prisma.ImageOrderByWithRelationInput[];
const json = (value: object) => value as Prisma.InputJsonObject;

/**
 * Every query of installed workspaces (`image`); which of them groups list is the groups
 * repository's to say. Settings names are unique: a taken one fails with a unique violation
 * (isUniqueViolation).
 */
export function createImagesRepository(database: Database) {
  const { prisma } = database;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    list: (tx?: Tx): Promise<ImageRow[]> => (tx ?? prisma).image.findMany({ orderBy: BY_NAME }),

    /** Every workspace by settings name, the name the settings file knows it by. */
    listBySettingsName: (tx: Tx): Promise<ImageRow[]> =>
      tx.image.findMany({ orderBy: { settingsName: 'asc' } }),

    find: (id: string, tx?: Tx): Promise<ImageRow | null> =>
      (tx ?? prisma).image.findUnique({ where: { id } }),

    exists: async (id: string): Promise<boolean> =>
      (await prisma.image.findUnique({ where: { id }, select: { id: true } })) !== null,

    /** Null when no workspace has the id. */
    update: (id: string, change: ImageChange, tx?: Tx): Promise<ImageRow | null> => {
      const memory = change.memory === undefined ? undefined : BigInt(change.memory);
      return orNullWhenMissing(
        (tx ?? prisma).image.update({ where: { id }, data: { ...change, memory } }),
      );
    },

    /** False when no workspace has the id. Group lists lose it through the foreign key's cascade. */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).image.deleteMany({ where: { id } })).count > 0,

    /** The workspaces with these ids (only the enabled ones with `enabledOnly`), by name. */
    among: (ids: readonly string[], enabledOnly = false): Promise<ImageRow[]> =>
      prisma.image.findMany({
        where: { id: { in: [...ids] }, ...(enabledOnly ? { enabled: true } : {}) },
        orderBy: BY_NAME,
      }),

    /** These workspaces' names, by id. */
    async namesOf(
      ids: readonly string[],
    ): Promise<Map<string, { id: string; name: string; friendlyName: string }>> {
      const rows = await prisma.image.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, name: true, friendlyName: true },
      });
      return new Map(rows.map((image) => [image.id, image]));
    },

    /** What a workspace allows of files and clipboard in and out of its sessions. */
    async transferPolicyOf(id: string): Promise<SessionPolicy | null> {
      const row = await prisma.image.findUnique({
        where: { id },
        select: {
          allowUploads: true,
          allowDownloads: true,
          maxUploadBytes: true,
          allowClipboardUp: true,
          allowClipboardDown: true,
          maxClipboardBytes: true,
        },
      });
      if (!row) return null;
      const max = row.maxUploadBytes;
      return { ...row, maxUploadBytes: max === null ? null : Number(max) };
    },

    /** A workspace's recording policy (docs/recording.md); null when it is gone. */
    recordingPolicyOf: (id: string) =>
      prisma.image.findUnique({
        where: { id },
        select: {
          recordSessions: true,
          recordKeystrokes: true,
          refuseUnrecorded: true,
          recordingRetentionDays: true,
          friendlyName: true,
        },
      }),

    /** Whether a workspace's sessions may play their sound in the browser (session-audio/). */
    async anonymousJoinOf(id: string): Promise<boolean> {
      const row = await prisma.image.findUnique({
        where: { id },
        select: { allowAnonymousJoin: true },
      });
      return row?.allowAnonymousJoin ?? false;
    },

    /** Whether a workspace's session owners are told while an administrator watches. */
    async watchNoticeOf(id: string): Promise<boolean> {
      const row = await prisma.image.findUnique({ where: { id }, select: { watchNotice: true } });
      return row?.watchNotice ?? true;
    },

    async audioAllowedOf(id: string): Promise<boolean | null> {
      const row = await prisma.image.findUnique({ where: { id }, select: { allowAudio: true } });
      return row ? row.allowAudio : null;
    },

    /** The settings names taken that start with `prefix`. */
    async settingsNamesFrom(prefix: string, tx?: Tx): Promise<Set<string>> {
      const taken = await (tx ?? prisma).image.findMany({
        where: { settingsName: { startsWith: prefix } },
        select: { settingsName: true },
      });
      return new Set(taken.map((image) => image.settingsName));
    },

    create: (fields: ImageFields & { settingsName: string }, tx?: Tx): Promise<ImageRow> =>
      (tx ?? prisma).image.create({
        data: {
          ...fields,
          runConfig: json(fields.runConfig),
          execConfig: json(fields.execConfig),
          volumeMappings: json(fields.volumeMappings),
        },
      }),

    /** The workspaces installed from a registry that name an icon (`image_src`). */
    async iconSources(): Promise<{ id: string; imageSrc: string; registryId: string }[]> {
      const rows = await prisma.image.findMany({
        where: { registryId: { not: null }, imageSrc: { not: '' } },
        select: { id: true, imageSrc: true, registryId: true },
        orderBy: { id: 'asc' },
      });
      return rows.flatMap(({ registryId, ...image }) =>
        registryId ? [{ ...image, registryId }] : [],
      );
    },

    /** The names of the registry's entries installed as workspaces. */
    async installedFrom(registryId: string): Promise<Set<string | null>> {
      const installed = await prisma.image.findMany({
        where: { registryId },
        select: { registryEntryName: true },
      });
      return new Set(installed.map((image) => image.registryEntryName));
    },
  };
}
export type ImagesRepository = ReturnType<typeof createImagesRepository>;
