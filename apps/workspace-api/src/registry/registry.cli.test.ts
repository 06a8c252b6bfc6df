import path from 'node:path';
import { createHarness, type Harness } from '../../test/harness';
import { registryList, STANDARD_WORKSPACES } from '../../test/registry-fixtures';
import {
  registryFiles,
  startRegistryServer,
  type RegistryServer,
} from '../../test/registry-server';
import { createHostAudit } from '../audit';
import { runRegistryCommand } from './registry.cli';

const ROOT = path.resolve(__dirname, '../../../..');

let h: Harness;
let server: RegistryServer;
beforeAll(async () => {
  [h, server] = await Promise.all([createHarness(), startRegistryServer()]);
  server.serve('/reg', registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES) }));
});
afterAll(async () => {
  await server.close();
  await h.close();
});
beforeEach(() => h.reset());

/** Runs one `registry ...` command; returns what went to stdout and to stderr. */
async function run(args: string[], flags: { force?: boolean; all?: boolean } = {}) {
  const out: string[] = [];
  let err = '';
  const context = {
    database: h.data,
    config: h.config,
    out: (line = '') => out.push(line),
    err: { write: (s: string) => (err += s) },
    cwd: ROOT,
    record: createHostAudit(h.data, 'cli').record,
  };
  await runRegistryCommand(args, { force: false, all: false, ...flags }, context);
  return { out, err };
}

describe('registry CLI', () => {
  it('adds the example registry from a path relative to where the command was run, with progress on stderr', async () => {
    const { out, err } = await run(['add', 'examples/registry']);
    expect(out).toEqual([
      expect.stringMatching(
        /^Added registry "Example Workspace Registry" .*schema 1\.0, 4 workspaces, 0 invalid$/,
      ),
    ]);
    expect(err).toContain('fetched  file://');
    expect(err).toContain('1.0/list.json');
    expect((await run(['list'])).out).toEqual([
      expect.stringContaining('Example Workspace Registry  file://'),
    ]);
  });

  it('installs a workspace from a URL not added yet, adding the registry first', async () => {
    const { out, err } = await run(['install', `${server.origin}/reg`, 'kasmweb/firefox:1.16.0']);
    expect(err).toContain(`fetched  ${server.origin}/reg/1.0/list.json`);
    expect(out[0]).toMatch(/^Added registry "Test Registry"/);
    expect(out[1]).toMatch(
      /^Installed "Firefox" as workspace [0-9a-f]{32} \(image kasmweb\/firefox:1\.16\.0\)\.$/,
    );
    expect(await h.db.image.count()).toBe(1);
  });

  it('records add, install and refresh in the audit trail, as the API records them', async () => {
    await run(['install', `${server.origin}/reg`, 'kasmweb/firefox:1.16.0']);
    await run(['refresh', 'Test Registry']);
    const events = await h.db.auditEvent.findMany({ orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => [e.operation, e.targetType, e.channel, e.actorKind])).toEqual([
      ['add_registry', 'registry', 'cli', 'system'],
      ['install_workspace', 'image', 'cli', 'system'],
      ['refresh_registry', 'registry', 'cli', 'system'],
    ]);
    expect(events[1].after).toMatchObject({ name: 'kasmweb/firefox:1.16.0' });
  });

  it('finds a registry by name, lists its workspaces, and installs an incompatible one only with --force', async () => {
    await run(['add', `${server.origin}/reg`]);
    const listed = await run(['workspaces', 'Test Registry']);
    expect(listed.out).toHaveLength(3);
    expect(listed.out[2]).toBe('(1 incompatible with 1.16.x hidden; --all shows them)');
    expect((await run(['workspaces', 'Test Registry'], { all: true })).out).toHaveLength(3);
    await expect(run(['install', 'Test Registry', 'kasmweb/legacy:1.10.0'])).rejects.toMatchObject({
      code: 'WORKSPACE_INCOMPATIBLE',
    });
    expect(
      (await run(['install', 'Test Registry', 'kasmweb/legacy:1.10.0'], { force: true })).out[0],
    ).toMatch(/^Installed "Legacy"/);
  });

  it('refreshes a registry and prints what changed', async () => {
    await run(['add', `${server.origin}/reg`]);
    server.serve(
      '/reg',
      registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES.slice(0, 2)) }),
    );
    try {
      const { out } = await run(['refresh', `${server.origin}/reg/`]);
      expect(out).toEqual([
        expect.stringMatching(/0 added, 0 changed, 1 removed$/),
        '  - kasmweb/legacy:1.10.0',
      ]);
    } finally {
      server.serve('/reg', registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES) }));
    }
  });

  it('explains an unknown registry or command', async () => {
    await expect(run(['refresh', 'Nope'])).rejects.toThrow('No registry matches "Nope"');
    await expect(run(['frobnicate'])).rejects.toThrow(
      /Unknown registry command "frobnicate"[\s\S]*registry add/,
    );
  });
});
