import { settingsCounts, useSettingsFixture } from '../../test/settings-files';

const fixture = useSettingsFixture();

// Seven different problems, several on items that also break their own schema: a reference in a
// broken item (an agent's zone, a workspace's name) is still checked, so one pass finds them all.
const SEVEN_PROBLEMS = `version: 1
zones:
  - {name: default, proxy_hostname: desk.example.com, proxy_port: 99999}
  - {name: default, proxy_hostname: other.example.com}
agents:
  - {hostname: agent-1, zone: nowhere, cores: -1, memory: 16000000000}
  - {hostname: agent-2, zone: elsewhere}
workspaces:
  - {name: kasmweb/missing:1.0.0, persistent_profile_path: 5}
groups:
  - name: Nobody
users:
  - username: ada
    file_mappings: [{name: x, destination: relative}]
`;

describe('settings apply: every problem in one pass', () => {
  it('reports every problem of a file at once, an unknown zone of a broken agent included', async () => {
    const file = await fixture.files.write('seven.yaml', SEVEN_PROBLEMS);
    const result = await fixture.apply(file);
    expect(result.status).toBe('invalid');
    expect(result.problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`)).toEqual([
      '3:67 zones[0].proxy_port: must be at most 65535',
      '4:12 zones[1].name: zone "default" is listed twice (first at line 3)',
      '6:31 agents[0].zone: zone "nowhere" is neither in this file nor in the database',
      '6:47 agents[0].cores: must be at least 1',
      '7:16 agents[1].hostname: needs cores and memory, or a docker_url to detect them from',
      '7:31 agents[1].zone: zone "elsewhere" is neither in this file nor in the database',
      '9:12 workspaces[0].name: no workspace is named "kasmweb/missing:1.0.0"',
      '9:60 workspaces[0].persistent_profile_path: must be text',
      '11:11 groups[0].name: no group is named "Nobody"',
      '14:44 users[0].file_mappings[0].destination: must be an absolute file path without . or .. segments or a trailing /',
    ]);
    expect(await settingsCounts(fixture.h)).toEqual({ zones: 0, agents: 0, mappings: 0 });
  });
});
