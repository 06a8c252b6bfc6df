import { isUniqueViolation } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Db } from '../db';
import {
  ImageAlreadyInstalledError,
  RegistryNotFoundError,
  RegistryWorkspaceInvalidError,
  RegistryWorkspaceNotFoundError,
  WorkspaceIncompatibleError,
} from '../errors';
import type { Image } from '../generated/prisma/client';
import { isCompatible } from './compatibility';
import { firstFreeSettingsName } from '../images/settings-name';
import { entryResourceProblems, imageFromEntry } from './image-from-entry';
import type { WorkspaceEntry } from './registry-list';
import { toRegistryWorkspaceResponse } from './registry-response';
import type { RegistryWorkspaceResponse } from './registry.schemas';

const versionsOf = (entry: WorkspaceEntry) => entry.compatibility.map((row) => row.version);

/** Browsing a registry's workspaces and installing one; `series` is this platform's, e.g. `1.16.x`. */
export function createRegistryWorkspacesService({ db, series }: { db: Db; series: string }) {
  async function requireRegistry(registryId: string): Promise<string> {
    const registry = await db.registry.findUnique({
      where: { id: toUuid(registryId) },
      select: { id: true },
    });
    if (!registry) throw new RegistryNotFoundError(`registry_id ${registryId}`);
    return registry.id;
  }

  return {
    series,

    async list(
      registryId: string,
      showIncompatible: boolean,
    ): Promise<{ workspaces: RegistryWorkspaceResponse[]; hiddenIncompatible: number }> {
      const id = await requireRegistry(registryId);
      const [rows, installed] = await Promise.all([
        db.registryEntry.findMany({ where: { registryId: id }, orderBy: { name: 'asc' } }),
        db.image.findMany({ where: { registryId: id }, select: { registryEntryName: true } }),
      ]);
      const installedNames = new Set(installed.map((image) => image.registryEntryName));
      const all = rows.map((row) =>
        toRegistryWorkspaceResponse(
          row.data as unknown as WorkspaceEntry,
          series,
          installedNames.has(row.name),
        ),
      );
      const workspaces = showIncompatible ? all : all.filter((w) => w.compatible);
      return { workspaces, hiddenIncompatible: all.length - workspaces.length };
    },

    /** Creates an installed workspace from an entry; an incompatible one only with force. */
    async install({
      registryId,
      name,
      force,
    }: {
      registryId: string;
      name: string;
      force: boolean;
    }): Promise<Image> {
      const id = await requireRegistry(registryId);
      const row = await db.registryEntry.findUnique({
        where: { registryId_name: { registryId: id, name } },
      });
      if (!row) throw new RegistryWorkspaceNotFoundError(name);
      const entry = row.data as unknown as WorkspaceEntry;
      if (!force && !isCompatible(versionsOf(entry), series))
        throw new WorkspaceIncompatibleError(name, series);
      const problems = entryResourceProblems(entry, series);
      if (problems.length > 0) throw new RegistryWorkspaceInvalidError(name, problems.join('; '));
      const data = imageFromEntry(entry, { registryId: id, series });
      // The settings name is picked from those taken; a concurrent install taking the same one
      // makes the unique index refuse it, and the next attempt picks again.
      for (let attempt = 1; ; attempt += 1) {
        const taken = await db.image.findMany({
          where: { settingsName: { startsWith: data.name } },
          select: { settingsName: true },
        });
        const settingsName = firstFreeSettingsName(
          data.name,
          new Set(taken.map((image) => image.settingsName)),
        );
        try {
          return await db.image.create({ data: { ...data, settingsName } });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const installed = await db.image.findUnique({
            where: { registryId_registryEntryName: { registryId: id, registryEntryName: name } },
            select: { id: true },
          });
          if (installed || attempt >= 5) throw new ImageAlreadyInstalledError(name);
        }
      }
    },
  };
}
export type RegistryWorkspacesService = ReturnType<typeof createRegistryWorkspacesService>;
