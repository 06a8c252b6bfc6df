/** A schema 1.0 registry workspace entry, compatible with 1.16.x unless told otherwise. */
export function workspaceEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base = String(overrides.name ?? 'kasmweb/terminal:1.16.0')
    .split(':')[0]
    .split('/')
    .pop();
  return {
    name: 'kasmweb/terminal:1.16.0',
    friendly_name: 'Terminal',
    description: 'A minimal terminal',
    image_src: `${base}.png`,
    docker_registry: 'https://index.docker.io/v1/',
    run_config: { hostname: 'kasm' },
    exec_config: { go: { cmd: 'bash -c "xdg-open $KASM_URL"' }, assign: { cmd: 'echo assigned' } },
    categories: ['Development'],
    architecture: ['amd64', 'arm64'],
    compatibility: ['1.15.x', '1.16.x'],
    uncompressed_size_mb: 1200,
    ...overrides,
  };
}

/** The same entry in schema 1.1: the image to use is named per platform version. */
export function workspaceEntryV11(
  repository: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return workspaceEntry({
    name: repository,
    compatibility: [
      {
        version: '1.16.x',
        image: `${repository}:1.16.1`,
        uncompressed_size_mb: 1500,
        available_tags: ['1.16.1', '1.16.1-rolling'],
      },
      {
        version: '1.15.x',
        image: `${repository}:1.15.0`,
        uncompressed_size_mb: 1400,
        available_tags: ['1.15.0'],
      },
    ],
    ...overrides,
  });
}

export function registryList(
  workspaces: unknown[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Test Registry',
    icon: 'https://example.com/icon.png',
    description: 'Workspaces for tests',
    list_url: 'https://example.com/registry/',
    contact_url: 'https://example.com/contact',
    modified: 1732000000000,
    workspacecount: workspaces.length,
    workspaces,
    ...overrides,
  };
}

/** Three valid workspaces: two compatible with 1.16.x, one only with 1.10.x and 1.1.x. */
export const STANDARD_WORKSPACES = [
  workspaceEntry(),
  workspaceEntry({
    name: 'kasmweb/firefox:1.16.0',
    friendly_name: 'Firefox',
    categories: ['Browser'],
    cores: 2,
    memory: 2768,
  }),
  workspaceEntry({
    name: 'kasmweb/legacy:1.10.0',
    friendly_name: 'Legacy',
    compatibility: ['1.10.x', '1.1.x', '1.160.x'],
  }),
];
