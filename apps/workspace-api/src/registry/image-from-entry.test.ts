import { REASONS } from '../domain';
import { imageFromEntry, screenEntryConfig } from './image-from-entry';
import type { WorkspaceEntry } from './registry-list';

const entry = (overrides: Partial<WorkspaceEntry> = {}): WorkspaceEntry => ({
  name: 'kasmweb/gimp',
  friendly_name: 'GIMP',
  description: 'Image editor',
  image_src: 'gimp.png',
  docker_registry: 'https://index.docker.io/v1/',
  run_config: { hostname: 'kasm' },
  exec_config: {},
  categories: ['Graphics'],
  architecture: ['amd64'],
  compatibility: [
    {
      version: '1.15.x',
      image: 'kasmweb/gimp:1.15.0',
      uncompressed_size_mb: 1400.4,
      available_tags: [],
    },
    {
      version: '1.16.x',
      image: 'kasmweb/gimp:1.16.1',
      uncompressed_size_mb: 1500,
      available_tags: [],
    },
  ],
  notes: null,
  cores: null,
  memory: null,
  gpu_count: null,
  volume_mappings: null,
  cpu_allocation_method: null,
  ...overrides,
});

const ids = { registryId: 'r', series: '1.16.x' };

describe('imageFromEntry', () => {
  it('uses the image and size listed for this platform, and remembers its origin', () => {
    expect(imageFromEntry(entry(), ids)).toMatchObject({
      name: 'kasmweb/gimp:1.16.1',
      uncompressedSizeMb: 1500,
      registryId: 'r',
      registryEntryName: 'kasmweb/gimp',
    });
  });

  it('uses the first row for a forced install on a platform the entry does not list, rounding the size', () => {
    expect(imageFromEntry(entry(), { ...ids, series: '1.17.x' })).toMatchObject({
      name: 'kasmweb/gimp:1.15.0',
      uncompressedSizeMb: 1400,
    });
  });

  it('falls back to the entry name when it lists no platform at all', () => {
    expect(imageFromEntry(entry({ compatibility: [] }), ids)).toMatchObject({
      name: 'kasmweb/gimp',
      uncompressedSizeMb: null,
    });
  });

  it("gives Kasm's defaults when the entry names no resources, and converts MB to bytes", () => {
    expect(imageFromEntry(entry(), ids)).toMatchObject({
      cores: 2,
      memory: 2_768_000_000n,
      gpuCount: 0,
      cpuAllocationMethod: 'Inherit',
      notes: '',
      volumeMappings: {},
    });
    expect(imageFromEntry(entry({ cores: 0.5, memory: 512.5, gpu_count: 2 }), ids)).toMatchObject({
      cores: 0.5,
      memory: 512_500_000n,
      gpuCount: 2,
    });
  });
});

describe('screenEntryConfig', () => {
  const hostile = entry({
    run_config: { hostname: 'kasm', privileged: true, scheme: 'http', port: 8080 },
    exec_config: {
      go: { cmd: 'run', user: 'root', privileged: true },
      pre_launch: { cmd: 'chown -R 0 /' },
    },
    volume_mappings: { '/': { bind: '/host', mode: 'rw' } },
  });

  it('keeps the allowlisted config, withheld values included, and reports every key not honoured', () => {
    expect(screenEntryConfig(hostile)).toEqual({
      runConfig: { hostname: 'kasm', scheme: 'http', port: 8080 },
      execConfig: { go: { cmd: 'run', user: 'root', privileged: true } },
      ignored: [
        { key: 'run_config.privileged', reason: REASONS.isolation },
        { key: 'exec_config.pre_launch', reason: REASONS.step },
        { key: 'run_config.scheme', reason: REASONS.plainHttp },
        { key: 'exec_config.go.user', reason: REASONS.rootExec },
        { key: 'exec_config.go.privileged', reason: REASONS.privilegedExec },
        { key: 'volume_mappings./', reason: REASONS.volumeMapping },
      ],
    });
  });

  it('reports nothing for an entry within the rules', () => {
    expect(screenEntryConfig(entry()).ignored).toEqual([]);
  });

  it('installs the screened config and no volume mappings', () => {
    expect(imageFromEntry(hostile, ids)).toMatchObject({
      runConfig: { hostname: 'kasm', scheme: 'http', port: 8080 },
      execConfig: { go: { cmd: 'run', user: 'root', privileged: true } },
      volumeMappings: {},
    });
  });
});
