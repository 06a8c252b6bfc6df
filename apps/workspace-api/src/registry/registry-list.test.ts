import { chooseSchemaVersion, parseRegistryList, parseVersions } from './registry-list';

const entryV10 = (overrides: Record<string, unknown> = {}) => ({
  name: 'kasmweb/terminal:1.16.0',
  friendly_name: 'Terminal',
  description: 'A terminal',
  image_src: 'terminal.png',
  docker_registry: 'https://index.docker.io/v1/',
  run_config: { hostname: 'kasm' },
  exec_config: { go: { cmd: 'bash -c "echo $KASM_URL"' } },
  categories: ['Development'],
  architecture: ['amd64', 'arm64'],
  compatibility: ['1.15.x', '1.16.x'],
  uncompressed_size_mb: 1200,
  ...overrides,
});

const list = (workspaces: unknown[], extra: Record<string, unknown> = {}) => ({
  name: 'Example',
  icon: 'https://example.com/icon.png',
  description: 'An example registry',
  list_url: 'https://example.com/',
  workspaces,
  ...extra,
});

describe('parseVersions and chooseSchemaVersion', () => {
  it('reads one version a line, skipping blanks, comments, a BOM and CRLF', () => {
    expect(parseVersions('\uFEFF1.0\r\n\r\n# next\n 1.1 \n')).toEqual(['1.0', '1.1']);
  });

  it('ignores the channel names a published versions.txt lists beside its schema versions', () => {
    expect(parseVersions('1.0\n1.1\nfeature_dependency_update\ndevelop\n')).toEqual(['1.0', '1.1']);
  });

  it('prefers 1.1, falls back to 1.0, and has no answer for other versions', () => {
    expect(chooseSchemaVersion(['1.0', '1.1'])).toBe('1.1');
    expect(chooseSchemaVersion(['1.0', '2.0'])).toBe('1.0');
    expect(chooseSchemaVersion(['2.0', '1.10'])).toBeNull();
    expect(chooseSchemaVersion([])).toBeNull();
  });
});

describe('parseRegistryList', () => {
  it('normalises a 1.0 entry to compatibility rows naming its own image', () => {
    const parsed = parseRegistryList(list([entryV10()]), '1.0');
    expect(parsed).toMatchObject({
      ok: true,
      invalid: [],
      meta: { name: 'Example', contact_url: '' },
    });
    if (!parsed.ok) throw new Error('expected a registry');
    expect(parsed.entries[0].compatibility).toEqual([
      {
        version: '1.15.x',
        image: 'kasmweb/terminal:1.16.0',
        uncompressed_size_mb: 1200,
        available_tags: [],
      },
      {
        version: '1.16.x',
        image: 'kasmweb/terminal:1.16.0',
        uncompressed_size_mb: 1200,
        available_tags: [],
      },
    ]);
    expect(parsed.entries[0]).toMatchObject({
      run_config: { hostname: 'kasm' },
      cores: null,
      notes: null,
    });
  });

  it('keeps the extras registries in the wild carry, and ignores unknown fields', () => {
    const extras = {
      notes: 'Needs a GPU for video',
      cores: 1.5,
      memory: 2768,
      gpu_count: 1,
      volume_mappings: { '/data': { bind: '/home/kasm-user/data', mode: 'rw' } },
      cpu_allocation_method: 'Inherit',
    };
    const parsed = parseRegistryList(
      list([entryV10({ ...extras, sha: 'b2842a74', require_gpu: false })]),
      '1.0',
    );
    if (!parsed.ok) throw new Error('expected a registry');
    expect(parsed.invalid).toEqual([]);
    expect(parsed.entries[0]).toMatchObject(extras);
    expect(parsed.entries[0]).not.toHaveProperty('sha');
  });

  it('reads 1.1 compatibility objects, with the entry size as the fallback', () => {
    const entry = entryV10({
      name: 'kasmweb/terminal',
      uncompressed_size_mb: 999,
      compatibility: [
        {
          version: '1.16.x',
          image: 'kasmweb/terminal:1.16.0',
          uncompressed_size_mb: 1300,
          available_tags: ['1.16.0', '1.16.0-rolling'],
        },
        { version: '1.15.x', image: 'kasmweb/terminal:1.15.0' },
      ],
    });
    const parsed = parseRegistryList(list([entry]), '1.1');
    if (!parsed.ok) throw new Error('expected a registry');
    expect(parsed.entries[0].compatibility).toEqual([
      {
        version: '1.16.x',
        image: 'kasmweb/terminal:1.16.0',
        uncompressed_size_mb: 1300,
        available_tags: ['1.16.0', '1.16.0-rolling'],
      },
      {
        version: '1.15.x',
        image: 'kasmweb/terminal:1.15.0',
        uncompressed_size_mb: 999,
        available_tags: [],
      },
    ]);
  });

  it('reports a broken entry with every problem and still loads the valid ones', () => {
    const broken = entryV10({
      name: 'no-tag',
      friendly_name: '',
      categories: 'Development',
      cores: 0,
    });
    const undescribed: Record<string, unknown> = entryV10({ name: 'other:1' });
    delete undescribed.description;
    const parsed = parseRegistryList(
      list([entryV10(), broken, undescribed, 'not an object']),
      '1.0',
    );
    if (!parsed.ok) throw new Error('expected a registry');
    expect(parsed.entries.map((e) => e.name)).toEqual(['kasmweb/terminal:1.16.0']);
    expect(parsed.invalid).toEqual([
      {
        index: 1,
        name: 'no-tag',
        problems: [
          { field: 'name', message: 'Expected <repository>:<tag>' },
          { field: 'friendly_name', message: expect.stringContaining('length') },
          { field: 'categories', message: 'Expected array' },
          { field: 'cores', message: expect.stringContaining('greater') },
        ],
      },
      {
        index: 2,
        name: 'other:1',
        problems: [{ field: 'description', message: 'Expected required property' }],
      },
      { index: 3, name: null, problems: [{ field: 'entry', message: 'Expected object' }] },
    ]);
  });

  it('reports out-of-range resources as invalid when the list loads, so no install can overflow', () => {
    const huge = [
      entryV10({ name: 'a:1', memory: 10_000_000_000_000 }),
      entryV10({ name: 'b:1', uncompressed_size_mb: 3e9 }),
      entryV10({ name: 'c:1', cores: 1e-300 }),
      entryV10({ name: 'd:1', memory: 0.5 }),
      entryV10({ name: 'e:1', cores: 2, memory: 1_000_000_000, uncompressed_size_mb: 10_000_000 }),
    ];
    const parsed = parseRegistryList(list(huge), '1.0');
    if (!parsed.ok) throw new Error('expected a registry');
    expect(parsed.entries.map((e) => e.name)).toEqual(['e:1']);
    expect(parsed.invalid.map((e) => [e.name, e.problems.map((p) => p.field)])).toEqual([
      ['a:1', ['memory']],
      ['b:1', ['uncompressed_size_mb']],
      ['c:1', ['cores']],
      ['d:1', ['memory']],
    ]);
    const v11 = entryV10({
      name: undefined,
      compatibility: [{ version: '1.16.x', image: 'x:1', uncompressed_size_mb: 3e9 }],
    });
    expect(parseRegistryList(list([v11]), '1.1')).toMatchObject({
      entries: [],
      invalid: [
        { name: 'Terminal', problems: [{ field: 'compatibility.0.uncompressed_size_mb' }] },
      ],
    });
  });

  it('reads a 1.1 entry as published: no top-level name, known by its friendly name', () => {
    const published: Record<string, unknown> = entryV10({
      friendly_name: 'Chromium',
      compatibility: [
        {
          version: '1.17.x',
          image: 'kasmweb/chromium:develop',
          uncompressed_size_mb: 2170,
          available_tags: ['develop'],
        },
      ],
      sha: 'c86d91f7',
    });
    delete published.name;
    delete published.uncompressed_size_mb;
    const parsed = parseRegistryList(list([published], { channels: ['develop'] }), '1.1');
    expect(parsed).toMatchObject({
      ok: true,
      invalid: [],
      entries: [
        {
          name: 'Chromium',
          compatibility: [
            { version: '1.17.x', image: 'kasmweb/chromium:develop', uncompressed_size_mb: 2170 },
          ],
        },
      ],
    });
  });

  it('refuses 1.1 objects in a 1.0 list and 1.0 strings in a 1.1 list', () => {
    const v11 = entryV10({ compatibility: [{ version: '1.16.x', image: 'x:1' }] });
    const v10 = entryV10({ name: 'kasmweb/terminal' });
    expect(parseRegistryList(list([v11]), '1.0')).toMatchObject({
      invalid: [{ problems: [{ field: 'compatibility.0' }] }],
    });
    expect(parseRegistryList(list([v10]), '1.1')).toMatchObject({
      invalid: [
        {
          problems: [
            { field: 'compatibility.0', message: 'Expected object' },
            { field: 'compatibility.1' },
          ],
        },
      ],
    });
  });

  it('reports a name repeated later in the list, keeping the first', () => {
    const parsed = parseRegistryList(
      list([entryV10(), entryV10({ friendly_name: 'Again' })]),
      '1.0',
    );
    expect(parsed).toMatchObject({
      entries: [{ friendly_name: 'Terminal' }],
      invalid: [
        { index: 1, problems: [{ field: 'name', message: 'repeats the name of workspace 0' }] },
      ],
    });
  });

  it.each([
    ['kasmweb/terminal:1.16.0', true],
    ['registry.example.com:5000/team/tool:latest', true],
    ['ubuntu:22.04', true],
    ['kasmweb/terminal', false],
    ['kasmweb/terminal:', false],
    ['kasm web/terminal:1', false],
  ])('judges the 1.0 name %s valid: %s', (name, valid) => {
    const parsed = parseRegistryList(list([entryV10({ name })]), '1.0');
    expect(parsed.ok && parsed.entries.length === 1).toBe(valid);
  });

  it('fails as a whole for JSON that is not a registry list, naming every problem', () => {
    expect(parseRegistryList({ hello: 'world' }, '1.0')).toEqual({
      ok: false,
      problems: [
        { field: 'name', message: 'Expected required property' },
        { field: 'workspaces', message: 'Expected required property' },
      ],
    });
    expect(parseRegistryList([entryV10()], '1.0')).toEqual({
      ok: false,
      problems: [{ field: 'list', message: 'Expected object' }],
    });
    expect(parseRegistryList(list({} as unknown as unknown[]), '1.0')).toMatchObject({
      ok: false,
      problems: [{ field: 'workspaces' }],
    });
  });

  it('accepts the list metadata of registries in the wild: numeric modified, workspacecount', () => {
    const parsed = parseRegistryList(
      list([], { modified: 1684453484629, workspacecount: 0, contact_url: 'https://x/' }),
      '1.0',
    );
    expect(parsed).toMatchObject({ ok: true, entries: [], meta: { contact_url: 'https://x/' } });
  });
});
