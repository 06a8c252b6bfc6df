import { tmpdir } from 'node:os';
import { policyDefaults } from '../src/domain';
import type { EnginePolicy } from '../src/engines';
import type { TargetedMapping } from '../src/file-mappings';
import { GROUP_POLICY_SWITCHES } from '../src/groups';
import { WORKSPACE_POLICY_LIMITS, WORKSPACE_POLICY_SWITCHES } from '../src/images';
// The fixtures of settings' own unit tests (src/settings/*.test.ts), which test its stages one by
// one: they build a stage's input with the stages before it, inside the feature.
/* eslint-disable no-restricted-imports -- see above */
import type { CurrentSettings } from '../src/settings/settings-current';
import type { DesiredSettings } from '../src/settings/settings-desired';
import { parseSettingsText } from '../src/settings/settings-parse';
import { normalizeSettings } from '../src/settings/settings-normalize';
/* eslint-enable no-restricted-imports */

/** The default engine policy: the standard sockets, no plain TCP. */
export const TEST_ENGINE_POLICY: EnginePolicy = {
  socketPaths: ['/var/run/docker.sock', '/run/docker.sock'],
  allowInsecureTcp: false,
  // Tests make their TLS files in the system's temporary folder.
  tlsDir: tmpdir(),
};

/** What the planner gets from a settings file's text; fails the test when the file itself has problems. */
/** An agent that only plans: no engine address. */
export const NO_ENGINE = { dockerUrl: '', tlsCaPath: '', tlsCertPath: '', tlsKeyPath: '' };
/** A workspace with no idle limit and the default policy, as installed. */
const NO_IDLE = {
  idleLimitSeconds: null,
  idleAction: 'stop',
  ...policyDefaults(WORKSPACE_POLICY_SWITCHES, WORKSPACE_POLICY_LIMITS),
};
/** A group refusing nothing, as created. */
export const OPEN_GROUP = policyDefaults(GROUP_POLICY_SWITCHES);

export function desiredFrom(text: string, files: Record<string, string> = {}): DesiredSettings {
  const parsed = parseSettingsText(text);
  const contentFiles = new Map(Object.entries(files).map(([name, content]) => [name, { content }]));
  const { desired, problems } = normalizeSettings(
    parsed.value as Record<string, unknown>,
    parsed.locate,
    contentFiles,
    { policy: TEST_ENGINE_POLICY, tlsProblems: new Map() },
  );
  const all = [...parsed.problems, ...problems];
  if (all.length > 0) throw new Error(`settings fixture has problems: ${JSON.stringify(all)}`);
  return desired;
}

/** A database with one zone, one agent in it, two workspaces, two groups and one user; nothing else. */
export function currentSettings(overrides: Partial<CurrentSettings> = {}): CurrentSettings {
  return {
    zones: [
      {
        id: 'z1',
        name: 'default',
        proxyHostname: 'desk.example.com',
        proxyPath: '/',
        proxyPort: 0,
      },
    ],
    agents: [
      {
        id: 'a1',
        hostname: 'agent-1',
        zoneId: 'z1',
        ...NO_ENGINE,
        cores: 8,
        memory: 16_000_000_000,
        coresOverride: 0,
        memoryOverride: 0,
      },
    ],
    images: [
      { id: 'i-term', name: 'kasmweb/terminal:1.16.0', persistentProfilePath: '', ...NO_IDLE },
      {
        id: 'i-fox',
        name: 'kasmweb/firefox:1.16.0',
        persistentProfilePath: '/p/{username}',
        ...NO_IDLE,
      },
    ],
    groups: [
      { id: 'g-all', name: 'All Users', permissions: [], ...OPEN_GROUP },
      { id: 'g-dev', name: 'Developers', permissions: [], ...OPEN_GROUP },
    ],
    users: [{ id: 'u-ada', username: 'ada' }],
    mappings: [],
    stagingConfigs: [],
    ssoProviders: [],
    ...overrides,
  };
}

/** The targets of currentSettings()' user ada and group dev, for mappings. */
export const ADA: TargetedMapping['target'] = { type: 'user', id: 'u-ada' };
export const DEV: TargetedMapping['target'] = { type: 'group', id: 'g-dev' };

/** A file mapping row of CurrentSettings: no description, not executable unless given. */
export const currentMapping = (
  mapping: Omit<TargetedMapping, 'description' | 'executable'> & Partial<TargetedMapping>,
): TargetedMapping => ({ description: '', executable: false, ...mapping });

/** The change that updates one field of one item, as a plan or an apply's result lists it. */
export const fieldUpdate = (
  entity: string,
  item: { id: string } | { key: string },
  field: string,
  from: unknown,
  to: unknown,
) => expect.objectContaining({ entity, action: 'update', ...item, fields: [{ field, from, to }] });

/** The same settings as currentSettings(), as a file. */
export const MATCHING_FILE = `version: 1
zones: [{name: default, proxy_hostname: desk.example.com, proxy_path: /, proxy_port: 0}]
agents: [{hostname: agent-1, zone: default, cores: 8, memory: 16000000000}]
workspaces: [{name: "kasmweb/firefox:1.16.0", persistent_profile_path: "/p/{username}"}]
`;
