import { toUuid } from '@platform/schemas';
import { isUniqueViolation, recordedChange, type AuditRecorder } from '../db';
import {
  ImageAlreadyInstalledError,
  RegistryNotFoundError,
  RegistryWorkspaceInvalidError,
  RegistryWorkspaceNotFoundError,
  WorkspaceIncompatibleError,
} from '../errors';
import {
  firstFreeSettingsName,
  type ImageRow,
  type ImagesRepository,
  toImageResponse,
} from '../images';
import { isCompatible } from './compatibility';
import type { ConfigNote } from '../domain';
import { entryResourceProblems, imageFromEntry, screenEntryConfig } from './image-from-entry';
import type { WorkspaceEntry } from './registry-list';
import { toRegistryWorkspaceResponse } from './registry-response';
import type { RegistryRepository } from './registry.repository';
import type { RegistryWorkspaceResponse } from './registry.schemas';

const versionsOf = (entry: WorkspaceEntry) => entry.compatibility.map((row) => row.version);

/** Browsing a registry's workspaces and installing one; `series` is this platform's, e.g. `1.16.x`. */
export function createRegistryWorkspacesService({
  registries,
  images,
  series,
}: {
  registries: RegistryRepository;
  images: ImagesRepository;
  series: string;
}) {
  async function requireRegistry(registryId: string): Promise<string> {
    const id = toUuid(registryId);
    if (!(await registries.exists(id)))
      throw new RegistryNotFoundError(`registry_id ${registryId}`);
    return id;
  }

  return {
    series,

    async list(
      registryId: string,
      showIncompatible: boolean,
    ): Promise<{ workspaces: RegistryWorkspaceResponse[]; hiddenIncompatible: number }> {
      const id = await requireRegistry(registryId);
      const [rows, installed] = await Promise.all([
        registries.entries(id),
        images.installedFrom(id),
      ]);
      const all = rows.map((row) =>
        toRegistryWorkspaceResponse(row.entry, series, installed.has(row.name)),
      );
      const workspaces = showIncompatible ? all : all.filter((w) => w.compatible);
      return { workspaces, hiddenIncompatible: all.length - workspaces.length };
    },

    /**
     * Creates an installed workspace from an entry; an incompatible one only with force. Also
     * says which of the entry's config keys the workspace does not honour, and why. With
     * `audit`, the API's event is written in the transaction that creates the workspace.
     */
    async install(
      {
        registryId,
        name,
        force,
      }: {
        registryId: string;
        name: string;
        force: boolean;
      },
      audit?: AuditRecorder | null,
    ): Promise<{ image: ImageRow; ignored: ConfigNote[] }> {
      const id = await requireRegistry(registryId);
      const row = await registries.entry(id, name);
      if (!row) throw new RegistryWorkspaceNotFoundError(name);
      const { entry } = row;
      if (!force && !isCompatible(versionsOf(entry), series))
        throw new WorkspaceIncompatibleError(name, series);
      const problems = entryResourceProblems(entry, series);
      if (problems.length > 0) throw new RegistryWorkspaceInvalidError(name, problems.join('; '));
      const data = imageFromEntry(entry, { registryId: id, series });
      const { ignored } = screenEntryConfig(entry);
      // The settings name is picked from those taken; a concurrent install taking the same one
      // makes the unique index refuse it (its transaction, event included, rolls back), and the
      // next attempt picks again in a transaction of its own.
      for (let attempt = 1; ; attempt += 1) {
        try {
          const image = await recordedChange(images.transaction, audit, {
            change: async (tx) => {
              const taken = await images.settingsNamesFrom(data.name, tx);
              const settingsName = firstFreeSettingsName(data.name, taken);
              return images.create({ ...data, settingsName }, tx);
            },
            after: (_tx, created) => toImageResponse(created),
          });
          return { image, ignored };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const installed = (await images.installedFrom(id)).has(name);
          if (installed || attempt >= 5) throw new ImageAlreadyInstalledError(name);
        }
      }
    },
  };
}
export type RegistryWorkspacesService = ReturnType<typeof createRegistryWorkspacesService>;
