import { parseSettingsText } from './settings-parse';

const problemsOf = (text: string) =>
  parseSettingsText(text).problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`);

describe('parseSettingsText', () => {
  it('accepts a minimal file and a complete one', () => {
    expect(problemsOf('version: 1\n')).toEqual([]);
    const text = `version: 1
zones: [{name: z, proxy_hostname: h.example.com, proxy_path: /p/, proxy_port: 0}]
agents: [{hostname: a, zone: z, cores: 1, memory: 1, cores_override: 0, memory_override: 0}]
workspaces: [{name: "kasmweb/terminal:1.16.0", persistent_profile_path: "/p/{username}", file_mappings: [{name: n, destination: /x, content: c}]}]
groups: [{name: G, file_mappings: []}]
users: [{username: ada}]
`;
    expect(problemsOf(text)).toEqual([]);
  });

  it('reports a file that is not a mapping, or empty, at its start', () => {
    expect(problemsOf('')).toEqual(['1:1 (file): must be a mapping that starts with version: 1']);
    expect(problemsOf('- 1\n- 2\n')).toEqual([
      '1:1 (file): must be a mapping that starts with version: 1',
    ]);
  });

  it('reports YAML syntax errors and duplicate keys with their line and column, and stops there', () => {
    const text = 'version: 1\nzones:\n  - name: a\n    name: b\n  - [1\n';
    expect(problemsOf(text)).toEqual([
      '4:5 (file): Map keys must be unique',
      expect.stringMatching(/^6:1 \(file\): Flow sequence/),
    ]);
  });

  it('reports a missing or wrong version', () => {
    expect(problemsOf('zones: []\n')).toEqual(['1:1 version: is required']);
    expect(problemsOf('version: 2\n')).toEqual(['1:10 version: must be 1']);
  });

  it('reports a missing required field once, at the item', () => {
    expect(problemsOf('version: 1\nagents:\n  - hostname: a\n    memory: 5\n')).toEqual([
      '3:5 agents[0].zone: is required',
    ]);
  });

  it('reports an unknown key at the key, naming the known ones', () => {
    expect(
      problemsOf('version: 1\nzones:\n  - name: z\n    proxy_hostname: h\n    proxy_prot: 80\n'),
    ).toEqual([
      '5:5 zones[0].proxy_prot: is not a known setting here (known: name, proxy_hostname, proxy_path, proxy_port)',
    ]);
    expect(problemsOf('version: 1\nzone: []\n')).toEqual([
      '2:1 zone: is not a known setting here (known: version, zones, agents, workspaces, groups, users, sso_providers)',
    ]);
  });

  it('reports every broken rule of every item, each at its value', () => {
    const text = `version: 1
zones:
  - name: ""
    proxy_hostname: "bad host"
    proxy_path: no-slash
    proxy_port: 70000
agents:
  - hostname: a
    zone: z
    cores: 1.5
    memory: -1
    cores_override: -1
    memory_override: lots
workspaces:
  - name: w
    file_mappings:
      - name: m
        destination: /etc/../passwd
        executable: "yes"
`;
    expect(problemsOf(text)).toEqual([
      '3:11 zones[0].name: must not be empty',
      '4:21 zones[0].proxy_hostname: must be a host name (letters, digits, dots and hyphens) or $request_host$',
      '5:17 zones[0].proxy_path: must be an absolute URL path such as /desk/: letters, digits and . _ ~ - between single slashes, no "." or ".." segment (default "/")',
      '6:17 zones[0].proxy_port: must be at most 65535',
      '10:12 agents[0].cores: must be a whole number',
      '11:13 agents[0].memory: must be at least 1',
      '12:21 agents[0].cores_override: must be at least 0',
      '13:22 agents[0].memory_override: must be a whole number',
      '18:22 workspaces[0].file_mappings[0].destination: must be an absolute file path without . or .. segments or a trailing /',
      '19:21 workspaces[0].file_mappings[0].executable: must be true or false',
    ]);
  });

  it('accepts proxy_port 0 and 65535 and refuses -1', () => {
    const zone = (port: number) =>
      `version: 1\nzones: [{name: z, proxy_hostname: h, proxy_port: ${port}}]\n`;
    expect(problemsOf(zone(0))).toEqual([]);
    expect(problemsOf(zone(65535))).toEqual([]);
    expect(problemsOf(zone(-1))).toEqual(['2:50 zones[0].proxy_port: must be at least 0']);
  });

  it('reports a list given where a mapping belongs and the other way round', () => {
    expect(problemsOf('version: 1\nzones: {name: z}\nusers:\n  - ada\n')).toEqual([
      '2:8 zones: must be a list',
      '4:5 users[0]: must be a mapping',
    ]);
  });

  it('points an empty value at its key', () => {
    expect(
      problemsOf('version: 1\nagents:\n  - hostname: a\n    zone: z\n    cores:\n    memory: 1\n'),
    ).toEqual(['5:5 agents[0].cores: must be a whole number']);
  });

  it('locates any path, falling back to the nearest existing parent', () => {
    const { locate } = parseSettingsText('version: 1\nusers:\n  - username: ada\n');
    expect(locate(['users', 0, 'username'])).toEqual({
      path: 'users[0].username',
      line: 3,
      column: 15,
    });
    expect(locate(['users', 0, 'file_mappings', 2])).toEqual({
      path: 'users[0].file_mappings[2]',
      line: 3,
      column: 5,
    });
    expect(locate(['users', 0, 'username'], true)).toEqual({
      path: 'users[0].username',
      line: 3,
      column: 5,
    });
  });
});
