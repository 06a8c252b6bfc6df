import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { enginePolicy } from '../src/engines';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createSettingsRepository,
  createSettingsService,
  type SettingsService,
} from '../src/settings';
import { userInput } from './factories';
import { createHarness, type Harness } from './harness';
import { createImage } from './image-factories';

export interface SettingsDir {
  dir: string;
  /** Writes a file (a settings file or a script) under the directory; returns its path. */
  write: (name: string, text: string) => Promise<string>;
  remove: () => Promise<void>;
}

export async function settingsDir(): Promise<SettingsDir> {
  const dir = await mkdtemp(path.join(tmpdir(), 'settings-'));
  return {
    dir,
    write: async (name, text) => {
      const file = path.join(dir, name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A complete settings file for a database holding the two workspaces of seedSettingsTargets. */
export const FULL_SETTINGS = `version: 1
zones:
  - {name: default, proxy_hostname: desk.example.com, proxy_port: 0}
  - {name: eu, proxy_hostname: eu.example.com, proxy_path: /desktop/, proxy_port: 8443}
agents:
  - {hostname: agent-1, zone: default, cores: 8, memory: 16000000000}
  - {hostname: agent-2, zone: eu, cores: 4, memory: 8000000000, cores_override: 6, memory_override: 12000000000}
workspaces:
  - name: kasmweb/terminal:1.16.0
    persistent_profile_path: /mnt/profiles/{username}
    file_mappings:
      - {name: Setup, destination: /dockerstartup/setup.sh, executable: true, content_file: scripts/setup.sh}
groups:
  - name: Developers
    file_mappings:
      - {name: Env, description: Proxy settings, destination: /etc/profile.d/env.sh, content: "export A=1\\n"}
users:
  - username: ada
    file_mappings:
      - {name: Git, destination: /home/kasm-user/.gitconfig, content: "[user]\\n  name = Ada\\n"}
`;
export const SETUP_SCRIPT = '#!/bin/sh\necho "setup $KASM_URL"\n';

/** Every settings row with its updated_at: equal snapshots mean that nothing was written. */
export async function settingsSnapshot(h: Harness): Promise<string[]> {
  const rows = await h.database.query<{ t: string; id: string; updated_at: Date }>(`
    SELECT 'zone' AS t, id, updated_at FROM workspace.zone UNION ALL
    SELECT 'agent', id, updated_at FROM workspace.agent UNION ALL
    SELECT 'file_mapping', id, updated_at FROM workspace.file_mapping UNION ALL
    SELECT 'staging_config', id, updated_at FROM workspace.staging_config UNION ALL
    SELECT 'group', id, updated_at FROM workspace."group" UNION ALL
    SELECT 'image', id, updated_at FROM workspace.image ORDER BY 1, 2`);
  return rows.map((r) => `${r.t} ${r.id} ${r.updated_at.toISOString()}`);
}

/** The workspaces, group and user that FULL_SETTINGS names, so that applying it finds them. */
export async function seedSettingsTargets(h: Harness): Promise<void> {
  await createImage(h.db, { name: 'kasmweb/terminal:1.16.0' });
  await createImage(h.db, {
    name: 'kasmweb/firefox:1.16.0',
    persistentProfilePath: '/keep/{username}',
  });
  await h.call('create_group', { target_group: { name: 'Developers' } });
  await h.call('create_user', { target_user: userInput({ username: 'ada' }) });
}

export const settingsCounts = async (h: Harness) => ({
  zones: await h.db.zone.count(),
  agents: await h.db.agent.count(),
  mappings: await h.db.fileMapping.count(),
});

export interface SettingsFixture {
  h: Harness;
  files: SettingsDir;
  settings: SettingsService;
  /** The path of FULL_SETTINGS, written with its script. */
  full: string;
  apply: (
    file: string,
    options?: { prune?: boolean; dryRun?: boolean },
  ) => ReturnType<SettingsService['apply']>;
}

/**
 * Registers the hooks of a settings test file: a harness and a settings folder for the file, and
 * before each test a reset database holding the workspaces, group and user FULL_SETTINGS names.
 * The returned object is filled in by beforeAll.
 */
export function useSettingsFixture(): SettingsFixture {
  const fixture = {} as SettingsFixture;
  beforeAll(async () => {
    [fixture.h, fixture.files] = await Promise.all([createHarness(), settingsDir()]);
    fixture.settings = createSettingsService({
      settings: createSettingsRepository(fixture.h.data),
      enginePolicy: enginePolicy(fixture.h.config),
    });
    await fixture.files.write('scripts/setup.sh', SETUP_SCRIPT);
    fixture.full = await fixture.files.write('full.yaml', FULL_SETTINGS);
    fixture.apply = (file, options = {}) =>
      fixture.settings.apply(file, { prune: false, dryRun: false, ...options });
  });
  afterAll(async () => {
    await fixture.files.remove();
    await fixture.h.close();
  });
  beforeEach(async () => {
    await fixture.h.reset();
    await seedSettingsTargets(fixture.h);
  });
  return fixture;
}
