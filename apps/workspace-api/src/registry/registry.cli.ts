import path from 'node:path';
import { toWireId } from '@platform/schemas';
import type { Config } from '../config';
import type { Database } from '../db';
import type { RecordChange } from '../domain';
import { createImagesRepository, toImageResponse } from '../images';
import { platformSeries } from './compatibility';
import { progressPrinter } from './progress';
import { parseRegistrySource } from './registry-source';
import { createRegistryWorkspacesService } from './registry-workspaces.service';
import { createRegistryRepository, type RegistryRow } from './registry.repository';
import { toRegistryResponse } from './registry-response';
import { createRegistryService } from './registry.service';
import { REGISTRY_USAGE } from '../cli-usage';

export interface RegistryCliContext {
  database: Database;
  config: Config;
  out: (line?: string) => void;
  err: { write: (s: string) => unknown; isTTY?: boolean };
  /** Where relative directories are resolved; npm runs scripts elsewhere but passes INIT_CWD. */
  cwd: string;
  /** The host's audit trail: add, refresh and install are recorded as the API's writes are. */
  record: RecordChange;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export async function runRegistryCommand(
  args: string[],
  flags: { force: boolean; all: boolean },
  ctx: RegistryCliContext,
) {
  const { database, config, out } = ctx;
  const stored = createRegistryRepository(database);
  // REGISTRY_ALLOW_LOCAL_PATHS keeps API callers from reading the server's files; whoever runs
  // the CLI already can, and `registry add examples/registry` is how a folder is loaded.
  const registries = createRegistryService({
    registries: stored,
    config: { ...config, REGISTRY_ALLOW_LOCAL_PATHS: true },
  });
  const workspaces = createRegistryWorkspacesService({
    registries: stored,
    images: createImagesRepository(database),
    series: platformSeries(config.PLATFORM_VERSION),
  });
  const onProgress = progressPrinter(ctx.err);
  const location = (ref: string) =>
    /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) ? ref : path.resolve(ctx.cwd, ref);
  const describe = (r: RegistryRow) => `"${r.name}" (${toWireId(r.id)}, ${r.url})`;
  const registryChange = (operation: string, before: RegistryRow | null, after: RegistryRow) =>
    ctx.record({
      operation,
      target: { type: 'registry', id: toWireId(after.id) },
      before: before && toRegistryResponse(before),
      after: toRegistryResponse(after),
    });

  async function findRegistry(ref: string): Promise<RegistryRow | undefined> {
    if (UUID.test(ref)) return registries.find(ref);
    const all = await registries.list();
    const source = parseRegistrySource(location(ref), { allowLocal: true });
    const byUrl = 'url' in source ? all.find((r) => r.url === source.url) : undefined;
    const byName = all.filter((r) => r.name === ref);
    if (byName.length > 1)
      throw new Error(`Several registries are named "${ref}"; use an id or URL`);
    return byUrl ?? byName[0];
  }

  async function requireRegistry(ref: string | undefined): Promise<RegistryRow> {
    if (!ref) throw new Error('Name the registry: an id, URL, directory or name');
    const registry = await findRegistry(ref);
    if (!registry) throw new Error(`No registry matches "${ref}"`);
    return registry;
  }

  async function add(ref: string): Promise<RegistryRow> {
    ctx.err.write(`Adding registry ${location(ref)}\n`);
    const registry = await registries.add(location(ref), onProgress);
    await registryChange('add_registry', null, registry);
    const invalid = registry.invalidEntries as {
      index: number;
      name: string | null;
      problems: { field: string; message: string }[];
    }[];
    out(
      `Added registry ${describe(registry)}: schema ${registry.schemaVersion}, ${registry._count.entries} workspaces, ${invalid.length} invalid`,
    );
    for (const entry of invalid) {
      out(
        `  skipped #${entry.index} ${entry.name ?? '(no name)'}: ${entry.problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
      );
    }
    return registry;
  }

  const [command, first, second] = args;
  if (command === 'add' && first) {
    await add(first);
  } else if (command === 'list') {
    const all = await registries.list();
    if (all.length === 0) out('No registries. Add one with: registry add <url | directory>');
    for (const r of all) {
      out(
        `${toWireId(r.id)}  ${r.name}  ${r.url}  ${r._count.entries} workspaces  fetched ${r.fetchedAt.toISOString()}`,
      );
    }
  } else if (command === 'workspaces') {
    const registry = await requireRegistry(first);
    const list = await workspaces.list(registry.id, flags.all);
    for (const w of list.workspaces) {
      out(
        `${w.name.padEnd(40)}  ${w.friendly_name.padEnd(24)}  ${w.compatible ? 'compatible' : 'incompatible'}${w.installed ? '  installed' : ''}`,
      );
    }
    if (list.hiddenIncompatible > 0)
      out(
        `(${list.hiddenIncompatible} incompatible with ${workspaces.series} hidden; --all shows them)`,
      );
  } else if (command === 'refresh') {
    const registry = await requireRegistry(first);
    ctx.err.write(`Refreshing registry ${registry.url}\n`);
    const result = await registries.refresh(registry.id, onProgress);
    await registryChange('refresh_registry', registry, result.registry);
    out(
      `Refreshed ${describe(result.registry)}: ${result.added.length} added, ${result.changed.length} changed, ${result.removed.length} removed`,
    );
    for (const [mark, names] of [
      ['+', result.added],
      ['~', result.changed],
      ['-', result.removed],
    ] as const) {
      for (const name of names) out(`  ${mark} ${name}`);
    }
  } else if (command === 'install' && first && second) {
    const registry = (await findRegistry(first)) ?? (await add(first));
    const { image, ignored } = await workspaces.install({
      registryId: registry.id,
      name: second,
      force: flags.force,
    });
    await ctx.record({
      operation: 'install_workspace',
      target: { type: 'image', id: toWireId(image.id) },
      before: null,
      after: toImageResponse(image),
    });
    out(
      `Installed "${image.friendlyName}" as workspace ${toWireId(image.id)} (image ${image.name}).`,
    );
    for (const { key, reason } of ignored) out(`  not honoured: ${key}: ${reason}`);
    out('No one may use it yet: add it to a group with add_images_group.');
  } else {
    throw new Error(`Unknown registry command "${args.join(' ')}"\n\n${REGISTRY_USAGE}`);
  }
}
