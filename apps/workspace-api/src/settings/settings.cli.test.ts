import { readFile } from 'node:fs/promises';
import { enginePolicy } from '../engines';
import path from 'node:path';
import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { createImage } from '../../test/image-factories';
import {
  FULL_SETTINGS,
  SETUP_SCRIPT,
  settingsDir,
  type SettingsDir,
} from '../../test/settings-files';
import { runSettingsCommand, runSettingsSchemaCommand } from './settings.cli';
import { settingsJsonSchemaText } from './settings-file.schemas';
import { createSettingsService } from './settings.service';
import { createSettingsRepository } from './settings.repository';

let h: Harness;
let files: SettingsDir;

beforeAll(async () => {
  [h, files] = await Promise.all([createHarness(), settingsDir()]);
  await files.write('scripts/setup.sh', SETUP_SCRIPT);
  await files.write('settings.yaml', FULL_SETTINGS);
});
afterAll(async () => {
  await files.remove();
  await h.close();
});
beforeEach(async () => {
  await h.reset();
  await createImage(h.db, { name: 'kasmweb/terminal:1.16.0' });
  await h.call('create_group', { target_group: { name: 'Developers' } });
  await h.call('create_user', { target_user: userInput({ username: 'ada' }) });
});

/** Runs `settings ...` as the CLI does, from the settings directory; returns stdout lines and stderr. */
async function run(args: string[], flags: { prune?: boolean; dryRun?: boolean } = {}) {
  const out: string[] = [];
  let err = '';
  const context = {
    out: (line = '') => out.push(...line.split('\n')),
    err: { write: (s: string) => (err += s) },
    cwd: files.dir,
    settings: createSettingsService({
      settings: createSettingsRepository(h.data),
      enginePolicy: enginePolicy(h.config),
    }),
  };
  if (args[0] === 'schema') await runSettingsSchemaCommand(args[1], context);
  else await runSettingsCommand(args, { prune: false, dryRun: false, ...flags }, context);
  return { out, err };
}

describe('settings CLI', () => {
  it('prints the diff of an apply, then "no changes" on the second run', async () => {
    const first = await run(['apply', 'settings.yaml']);
    expect(first.out).toEqual([
      '+ zone "default" (https://desk.example.com/)',
      '+ zone "eu" (https://eu.example.com:8443/desktop/)',
      '+ agent "agent-1" (zone "default", 8 cores, 16000000000 bytes)',
      '+ agent "agent-2" (zone "eu", 4 cores, 8000000000 bytes)',
      '~ workspace "kasmweb/terminal:1.16.0": persistent_profile_path "" → "/mnt/profiles/{username}"',
      `+ file mapping /dockerstartup/setup.sh of workspace "kasmweb/terminal:1.16.0" ("Setup", ${SETUP_SCRIPT.length} bytes, executable)`,
      '+ file mapping /etc/profile.d/env.sh of group "Developers" ("Env", 11 bytes)',
      '+ file mapping /home/kasm-user/.gitconfig of user "ada" ("Git", 20 bytes)',
      'Applied 8 change(s): 7 created, 1 updated, 0 deleted.',
    ]);
    expect((await run(['apply', 'settings.yaml'])).out).toEqual([
      'No changes: the database already matches settings.yaml.',
    ]);
  });

  it('prints what a dry run would do and writes nothing', async () => {
    const { out } = await run(['apply', 'settings.yaml'], { dryRun: true });
    expect(out.at(-1)).toBe('Dry run: 7 to create, 1 to update, 0 to delete; nothing was written.');
    expect(await h.db.zone.count()).toBe(0);
  });

  it('prints every problem of an invalid file as file:line:column and fails with SETTINGS_INVALID', async () => {
    await files.write(
      'bad.yaml',
      'version: 1\nzones:\n  - name: z\n    proxy_hostname: "no such"\nusers: [{username: ghost}]\n',
    );
    let err = '';
    await expect(
      runSettingsCommand(
        ['apply', 'bad.yaml'],
        { prune: false, dryRun: false },
        {
          out: () => undefined,
          err: { write: (s: string) => (err += s) },
          cwd: files.dir,
          settings: createSettingsService({
            settings: createSettingsRepository(h.data),
            enginePolicy: enginePolicy(h.config),
          }),
        },
      ),
    ).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
      message: 'The settings file bad.yaml has 2 problem(s); nothing was changed',
    });
    expect(err).toBe(
      'bad.yaml:4:21  zones[0].proxy_hostname: must be a host name (letters, digits, dots and hyphens) or $request_host$\n' +
        'bad.yaml:5:20  users[0].username: no user has the username "ghost"\n',
    );
  });

  it('exports to stdout or to a file that apply accepts unchanged', async () => {
    await run(['apply', 'settings.yaml']);
    const { out } = await run(['export']);
    expect(out.join('\n')).toContain('hostname: agent-2');
    const { err } = await run(['export', 'exported.yaml']);
    expect(err).toBe(`Wrote the settings to ${path.join(files.dir, 'exported.yaml')}\n`);
    expect((await run(['apply', 'exported.yaml'], { prune: true })).out).toEqual([
      'No changes: the database already matches exported.yaml.',
    ]);
  });

  it('writes the JSON Schema, to stdout or to a file', async () => {
    expect((await run(['schema'])).out.join('\n')).toBe(settingsJsonSchemaText().trimEnd());
    await run(['schema', 'schema.json']);
    expect(await readFile(path.join(files.dir, 'schema.json'), 'utf8')).toBe(
      settingsJsonSchemaText(),
    );
  });

  it('explains an unknown or incomplete command', async () => {
    await expect(run(['frobnicate'])).rejects.toThrow(
      /Unknown settings command "frobnicate"[\s\S]*settings apply <file>/,
    );
    await expect(run(['apply'])).rejects.toThrow(/Unknown settings command "apply"/);
  });
});
