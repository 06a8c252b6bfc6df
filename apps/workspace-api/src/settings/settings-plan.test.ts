import {
  ADA,
  currentMapping,
  DEV,
  currentSettings,
  desiredFrom,
  fieldUpdate,
  MATCHING_FILE,
} from '../../test/settings-fixtures';
import type { SettingsChange } from './settings-changes';
import { emptyDesired } from './settings-desired';
import { formatChange } from './settings-format';
import { planSettings } from './settings-plan';

const lines = (changes: SettingsChange[]) => changes.map(formatChange);
const problemLines = (plan: ReturnType<typeof planSettings>) =>
  plan.problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`);

/** The current settings plus a zone "old" and a group mapping /x that a bare file does not name. */
const withUnnamedZoneAndMapping = (content: string) =>
  currentSettings({
    zones: [
      ...currentSettings().zones,
      { id: 'z2', name: 'old', proxyHostname: 'old', proxyPath: '/', proxyPort: 1 },
    ],
    mappings: [currentMapping({ id: 'm1', target: DEV, name: 'x', destination: '/x', content })],
  });

describe('planSettings', () => {
  it('creates everything a file names on an empty database, zones before the agents in them', () => {
    const empty = currentSettings({ zones: [], agents: [], mappings: [] });
    const plan = planSettings(
      desiredFrom(MATCHING_FILE),
      { ...empty, images: empty.images.map((i) => ({ ...i, persistentProfilePath: '' })) },
      { prune: false },
    );
    expect(plan.problems).toEqual([]);
    expect(lines(plan.changes)).toEqual([
      '+ zone "default" (https://desk.example.com/)',
      '+ agent "agent-1" (zone "default", 8 cores, 16000000000 bytes)',
      '~ workspace "kasmweb/firefox:1.16.0": persistent_profile_path "" → "/p/{username}"',
    ]);
  });

  it('plans nothing when the database already matches, with or without prune', () => {
    expect(planSettings(desiredFrom(MATCHING_FILE), currentSettings(), { prune: false })).toEqual({
      changes: [],
      problems: [],
    });
    expect(planSettings(desiredFrom(MATCHING_FILE), currentSettings(), { prune: true })).toEqual({
      changes: [],
      problems: [],
    });
  });

  it('updates only the fields that differ, naming them as the file does', () => {
    const file = MATCHING_FILE.replace('proxy_port: 0', 'proxy_port: 8443').replace(
      'memory: 16000000000}',
      'memory: 16000000000, cores_override: 12}',
    );
    const plan = planSettings(desiredFrom(file), currentSettings(), { prune: false });
    expect(plan.changes).toEqual([
      fieldUpdate('zone', { id: 'z1' }, 'proxy_port', 0, 8443),
      fieldUpdate('agent', { id: 'a1' }, 'cores_override', 0, 12),
    ]);
  });

  it('treats an omitted override as 0 and an omitted proxy_port as 443: the file describes the whole item', () => {
    const current = currentSettings();
    current.agents[0].memoryOverride = 4_000_000_000;
    const file = MATCHING_FILE.replace(', proxy_port: 0', '');
    expect(lines(planSettings(desiredFrom(file), current, { prune: false }).changes)).toEqual([
      '~ zone "default": proxy_port 0 → 443',
      '~ agent "agent-1": memory_override 4000000000 → 0',
    ]);
  });

  it('moves an agent to another zone, including one created by the same apply', () => {
    const file = `${MATCHING_FILE}`
      .replace('zones: [', 'zones: [{name: eu, proxy_hostname: eu.example.com}, ')
      .replace('zone: default', 'zone: eu');
    expect(
      lines(planSettings(desiredFrom(file), currentSettings(), { prune: false }).changes),
    ).toEqual([
      '+ zone "eu" (https://eu.example.com:443/)',
      '~ agent "agent-1": zone "default" → "eu"',
    ]);
  });

  it('without prune, removes nothing the file does not name', () => {
    const current = withUnnamedZoneAndMapping('');
    expect(planSettings(desiredFrom('version: 1\n'), current, { prune: false }).changes).toEqual(
      [],
    );
  });

  it('with prune, deletes mappings, agents and zones the file does not name (in that order) and clears unnamed profile paths', () => {
    const current = withUnnamedZoneAndMapping('abc');
    const plan = planSettings(desiredFrom('version: 1\n'), current, { prune: true });
    expect(lines(plan.changes)).toEqual([
      '- file mapping /x of group "Developers" ("x", 3 bytes)',
      '- agent "agent-1" (zone "default", 8 cores, 16000000000 bytes)',
      '- zone "default" (https://desk.example.com/)',
      '- zone "old" (https://old:1/)',
      '~ workspace "kasmweb/firefox:1.16.0": persistent_profile_path "/p/{username}" → ""',
    ]);
    expect(plan.changes.filter((c) => c.action === 'delete').map((c) => c.id)).toEqual([
      'm1',
      'a1',
      'z1',
      'z2',
    ]);
  });

  it('leaves a profile path the file omits alone without prune, and clears it with prune', () => {
    const file = 'version: 1\nworkspaces: [{name: "kasmweb/firefox:1.16.0"}]\n';
    expect(planSettings(desiredFrom(file), currentSettings(), { prune: false }).changes).toEqual(
      [],
    );
    const pruned = planSettings(desiredFrom(file), currentSettings({ zones: [], agents: [] }), {
      prune: true,
    });
    expect(lines(pruned.changes)).toEqual([
      '~ workspace "kasmweb/firefox:1.16.0": persistent_profile_path "/p/{username}" → ""',
    ]);
  });

  it('sets an idle limit and action the file gives, lifts a limit of 0, and with prune lifts those it omits', () => {
    const file =
      'version: 1\nworkspaces: [{name: "kasmweb/terminal:1.16.0", idle_limit_seconds: 900, idle_action: destroy}]\n';
    const current = currentSettings({ zones: [], agents: [] });
    const plan = planSettings(desiredFrom(file), current, { prune: false });
    expect(plan.problems).toEqual([]);
    expect(lines(plan.changes)).toEqual([
      '~ workspace "kasmweb/terminal:1.16.0": idle_limit_seconds null → 900, idle_action "stop" → "destroy"',
    ]);
    expect(plan.changes[0].values).toEqual({ idleLimitSeconds: 900, idleAction: 'destroy' });

    const limited = currentSettings({
      zones: [],
      agents: [],
      images: current.images.map((i) => ({ ...i, idleLimitSeconds: 600, idleAction: 'destroy' })),
    });
    const lifted = file.replace(
      'idle_limit_seconds: 900, idle_action: destroy',
      'idle_limit_seconds: 0',
    );
    expect(lines(planSettings(desiredFrom(lifted), limited, { prune: false }).changes)).toEqual([
      '~ workspace "kasmweb/terminal:1.16.0": idle_limit_seconds 600 → null',
    ]);
    expect(planSettings(desiredFrom('version: 1\n'), limited, { prune: false }).changes).toEqual(
      [],
    );
    const prunedIdle = planSettings(
      desiredFrom(MATCHING_FILE),
      {
        ...currentSettings(),
        images: currentSettings().images.map((i) => ({
          ...i,
          idleLimitSeconds: 600,
          idleAction: 'destroy',
        })),
      },
      { prune: true },
    );
    expect(lines(prunedIdle.changes)).toEqual([
      '~ workspace "kasmweb/firefox:1.16.0": idle_limit_seconds 600 → null, idle_action "destroy" → "stop"',
      '~ workspace "kasmweb/terminal:1.16.0": idle_limit_seconds 600 → null, idle_action "destroy" → "stop"',
    ]);
  });

  it('refuses a negative idle limit and an unknown idle action', () => {
    const file =
      'version: 1\nworkspaces: [{name: "kasmweb/terminal:1.16.0", idle_limit_seconds: -5, idle_action: sleep}]\n';
    expect(() => desiredFrom(file)).toThrow();
  });

  it('creates, updates and keeps file mappings by (target, destination)', () => {
    const current = currentSettings({
      mappings: [
        currentMapping({ id: 'm1', target: ADA, name: 'same', destination: '/same', content: 'x' }),
        currentMapping({
          id: 'm2',
          target: ADA,
          name: 'old',
          destination: '/changed',
          content: 'x',
        }),
      ],
    });
    const file = `version: 1
users:
  - username: ada
    file_mappings:
      - {name: same, destination: /same, content: x}
      - {name: new, destination: /changed, executable: true, content: "xyz"}
      - {name: added, destination: /added}
groups:
  - name: Developers
    file_mappings: [{name: same, destination: /same, content: x}]
`;
    const plan = planSettings(desiredFrom(file), current, { prune: false });
    expect(lines(plan.changes)).toEqual([
      '+ file mapping /added of user "ada" ("added", 0 bytes)',
      '~ file mapping /changed of user "ada": name "old" → "new", executable false → true, content 1 bytes → 3 bytes',
      '+ file mapping /same of group "Developers" ("same", 1 bytes)',
    ]);
    expect(plan.changes[1]).toMatchObject({
      id: 'm2',
      target: { type: 'user', id: 'u-ada', name: 'ada' },
    });
  });

  it('reports every workspace, group and user the database does not have, at its name', () => {
    const file = `version: 1
workspaces: [{name: "kasmweb/nothing:1.0"}]
groups: [{name: Nobody}]
users: [{username: ghost}]
`;
    const plan = planSettings(desiredFrom(file), currentSettings(), { prune: false });
    expect(problemLines(plan)).toEqual([
      '2:21 workspaces[0].name: no workspace is named "kasmweb/nothing:1.0"',
      '3:17 groups[0].name: no group is named "Nobody"',
      '4:20 users[0].username: no user has the username "ghost"',
    ]);
  });

  it('reports a workspace name that several installed workspaces share', () => {
    const images = [...currentSettings().images, { ...currentSettings().images[0], id: 'i-term2' }];
    const plan = planSettings(
      desiredFrom('version: 1\nworkspaces: [{name: "kasmweb/terminal:1.16.0"}]\n'),
      currentSettings({ images }),
      { prune: false },
    );
    expect(problemLines(plan)).toEqual([
      '2:21 workspaces[0].name: 2 installed workspaces are named "kasmweb/terminal:1.16.0"; settings cannot tell them apart',
    ]);
  });

  it('accepts an agent in a zone only the database has, unless prune would remove that zone', () => {
    const file =
      'version: 1\nagents: [{hostname: agent-1, zone: default, cores: 8, memory: 16000000000}]\n';
    expect(planSettings(desiredFrom(file), currentSettings(), { prune: false })).toEqual({
      changes: [],
      problems: [],
    });
    expect(
      problemLines(planSettings(desiredFrom(file), currentSettings(), { prune: true })),
    ).toEqual(['2:36 agents[0].zone: zone "default" is not in this file, and --prune removes it']);
    const nowhere = file.replace('zone: default', 'zone: nowhere');
    expect(
      problemLines(planSettings(desiredFrom(nowhere), currentSettings(), { prune: false })),
    ).toEqual(['2:36 agents[0].zone: zone "nowhere" is neither in this file nor in the database']);
  });

  it('plans nothing from nothing', () => {
    const empty = currentSettings({ zones: [], agents: [], images: [], groups: [], users: [] });
    expect(planSettings(emptyDesired(), empty, { prune: true })).toEqual({
      changes: [],
      problems: [],
    });
  });
});
