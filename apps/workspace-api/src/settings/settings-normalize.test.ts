import { TEST_ENGINE_POLICY } from '../../test/settings-fixtures';
import { parseSettingsText } from './settings-parse';
import { normalizeSettings } from './settings-normalize';

function normalize(text: string, files: Record<string, string | { error: string }> = {}) {
  const parsed = parseSettingsText(text);
  const contentFiles = new Map(
    Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? { content: v } : v]),
  );
  const { desired, problems } = normalizeSettings(
    parsed.value as Record<string, unknown>,
    parsed.locate,
    contentFiles,
    { policy: TEST_ENGINE_POLICY, tlsProblems: new Map() },
  );
  return {
    desired,
    problems: [...parsed.problems, ...problems].map(
      (p) => `${p.line}:${p.column} ${p.path}: ${p.message}`,
    ),
  };
}

describe('normalizeSettings', () => {
  it('fills the defaults of what the file leaves out', () => {
    const { desired, problems } = normalize(`version: 1
zones: [{name: z, proxy_hostname: h}]
agents: [{hostname: a, zone: z, cores: 4, memory: 8}]
groups: [{name: G, file_mappings: [{name: m, destination: /x}]}]
`);
    expect(problems).toEqual([]);
    expect(desired.zones).toEqual([
      expect.objectContaining({ name: 'z', proxyHostname: 'h', proxyPath: '/', proxyPort: 443 }),
    ]);
    expect(desired.agents).toEqual([
      expect.objectContaining({ coresOverride: 0, memoryOverride: 0 }),
    ]);
    expect(desired.mappings).toEqual([
      expect.objectContaining({
        name: 'm',
        description: '',
        destination: '/x',
        executable: false,
        content: '',
      }),
    ]);
  });

  it('normalizes names as the database stores them: trimmed, host names and usernames lower-cased', () => {
    const { desired } = normalize(`version: 1
zones: [{name: " Main ", proxy_hostname: Desk.Example.COM}]
agents: [{hostname: Agent-1.Internal, zone: " Main ", cores: 1, memory: 1}]
workspaces: [{name: " kasmweb/terminal:1.16.0 "}]
groups: [{name: " Developers "}]
users: [{username: " Ada "}]
`);
    expect(desired.zones[0]).toMatchObject({ name: 'Main', proxyHostname: 'desk.example.com' });
    expect(desired.agents[0]).toMatchObject({ hostname: 'agent-1.internal', zone: 'Main' });
    expect(desired.targets.map((t) => [t.type, t.name])).toEqual([
      ['image', 'kasmweb/terminal:1.16.0'],
      ['group', 'Developers'],
      ['user', 'ada'],
    ]);
  });

  it('keeps where each item is, for the problems the planner finds', () => {
    const { desired } = normalize(
      'version: 1\nagents:\n  - hostname: a\n    zone: z\n    cores: 1\n    memory: 1\n',
    );
    expect(desired.agents[0].at).toEqual({ path: 'agents[0].hostname', line: 3, column: 15 });
    expect(desired.agents[0].zoneAt).toEqual({ path: 'agents[0].zone', line: 4, column: 11 });
  });

  it('reports every name listed twice, at the second, naming the line of the first', () => {
    const { problems } = normalize(`version: 1
zones: [{name: z, proxy_hostname: h}, {name: " z", proxy_hostname: h}]
agents: [{hostname: a, zone: z, cores: 1, memory: 1}, {hostname: A, zone: z, cores: 1, memory: 1}]
workspaces: [{name: w}, {name: w}]
groups: [{name: g}, {name: g}]
users: [{username: ada}, {username: ADA}]
`);
    expect(problems).toEqual([
      '2:46 zones[1].name: zone "z" is listed twice (first at line 2)',
      '3:66 agents[1].hostname: agent "a" is listed twice (first at line 3)',
      '4:32 workspaces[1].name: workspace "w" is listed twice (first at line 4)',
      '5:28 groups[1].name: group "g" is listed twice (first at line 5)',
      '6:37 users[1].username: user "ada" is listed twice (first at line 6)',
    ]);
  });

  it('reports a destination mapped twice for the same target, but not for different targets', () => {
    const { problems, desired } = normalize(`version: 1
groups:
  - name: g
    file_mappings:
      - {name: a, destination: /x}
      - {name: b, destination: /x}
users:
  - username: ada
    file_mappings: [{name: c, destination: /x}]
`);
    expect(problems).toEqual([
      '6:32 groups[0].file_mappings[1].destination: destination /x is listed twice (first at line 5)',
    ]);
    expect(desired.mappings.map((m) => m.name)).toEqual(['a', 'c']);
  });

  it('checks persistent_profile_path with the rules of update_image, every problem at the value', () => {
    const { problems, desired } = normalize(`version: 1
workspaces:
  - name: a
    persistent_profile_path: profiles/{home}
  - name: b
    persistent_profile_path: s3://bucket/{user_id}
  - name: c
`);
    expect(problems).toEqual([
      '4:30 workspaces[0].persistent_profile_path: must be an absolute path or an s3:// URL',
      '4:30 workspaces[0].persistent_profile_path: has unknown placeholder(s) {home}; known are {username}, {user_id}, {image_id}',
      '4:30 workspaces[0].persistent_profile_path: must contain {username} or {user_id}, so that each user has a profile of their own',
    ]);
    expect(desired.workspaces.map((w) => w.persistentProfilePath)).toEqual([
      'profiles/{home}',
      's3://bucket/{user_id}',
      undefined,
    ]);
  });

  it('refuses . and .. segments of persistent_profile_path, raw or percent-encoded', () => {
    const { problems } = normalize(`version: 1
workspaces:
  - name: a
    persistent_profile_path: /{user_id}/..
  - name: b
    persistent_profile_path: /p/%2e%2E/{username}
  - name: c
    persistent_profile_path: '/p/{username}\\x'
`);
    expect(problems).toEqual([
      '4:30 workspaces[0].persistent_profile_path: must not contain . or .. segments, raw or percent-encoded',
      '6:30 workspaces[1].persistent_profile_path: must not contain . or .. segments, raw or percent-encoded',
      '8:30 workspaces[2].persistent_profile_path: must separate folders with /, not \\',
    ]);
  });

  it('takes content inline or from content_file, and refuses both at once', () => {
    const { desired, problems } = normalize(
      `version: 1
users:
  - username: ada
    file_mappings:
      - {name: a, destination: /a, content: "inline\\n"}
      - {name: b, destination: /b, content_file: scripts/b.sh}
      - {name: c, destination: /c, content: x, content_file: scripts/b.sh}
`,
      { 'scripts/b.sh': '#!/bin/sh\necho b\n' },
    );
    expect(desired.mappings.map((m) => [m.destination, m.content])).toEqual([
      ['/a', 'inline\n'],
      ['/b', '#!/bin/sh\necho b\n'],
    ]);
    expect(problems).toEqual([
      '7:62 users[0].file_mappings[2].content_file: give content or content_file, not both',
    ]);
  });

  it('reports a content_file that could not be read at its value', () => {
    const { problems } = normalize(
      'version: 1\nusers: [{username: a, file_mappings: [{name: m, destination: /m, content_file: x.sh}]}]\n',
      {
        'x.sh': { error: 'there is no file /cfg/x.sh' },
      },
    );
    expect(problems).toEqual([
      '2:80 users[0].file_mappings[0].content_file: there is no file /cfg/x.sh',
    ]);
  });

  it('refuses content over 5 MiB in UTF-8 bytes, also when it has fewer characters', () => {
    const big = 'é'.repeat(2_700_000);
    const { problems } = normalize(
      'version: 1\nusers: [{username: a, file_mappings: [{name: m, destination: /m, content_file: big.txt}]}]\n',
      {
        'big.txt': big,
      },
    );
    expect(problems).toEqual([
      '2:80 users[0].file_mappings[0].content_file: is 5400000 bytes in UTF-8; at most 5242880 (5 MiB) are allowed',
    ]);
  });

  it('still checks the rest of an item when one of its file mappings is broken', () => {
    const { problems, desired } = normalize(`version: 1
workspaces:
  - name: w
    persistent_profile_path: relative/{username}
    file_mappings:
      - {name: bad, destination: relative}
      - {name: good, destination: /good}
`);
    expect(problems.sort()).toEqual([
      '4:30 workspaces[0].persistent_profile_path: must be an absolute path or an s3:// URL',
      '6:34 workspaces[0].file_mappings[0].destination: must be an absolute file path without . or .. segments or a trailing /',
    ]);
    expect(desired.targets.map((t) => t.name)).toEqual(['w']);
    expect(desired.mappings.map((m) => m.name)).toEqual(['good']);
  });
});
