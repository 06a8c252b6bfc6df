import {
  currentMapping,
  DEV,
  currentSettings,
  desiredFrom,
  NO_ENGINE,
} from '../../test/settings-fixtures';
import type { CurrentSettings } from './settings-current';
import { exportSettings } from './settings-export';
import { parseSettingsText } from './settings-parse';
import { planSettings } from './settings-plan';

const TRICKY_CONTENTS = [
  '',
  '\n',
  'no trailing newline',
  'two trailing newlines\n\n',
  '  leading spaces\nand trailing spaces   \n',
  '\ttabs\tinside\n',
  'windows\r\nline endings\r\n',
  '# looks like a comment\nkey: value\n- item\n---\n',
  'yes',
  'null',
  '1.0',
  '"quoted" \'single\' \\ backslash $KASM_URL ${HOME}',
  'unicode: zoë ☃ 日本語 🚀\n',
  '\n\nleading blank lines',
  'x'.repeat(5000),
];

function trickyCurrent(): CurrentSettings {
  const base = currentSettings();
  return currentSettings({
    zones: [
      ...base.zones,
      {
        id: 'z2',
        name: 'eu: west # 2',
        proxyHostname: 'eu.example.com',
        proxyPath: '/desk/',
        proxyPort: 65535,
      },
    ],
    agents: [
      ...base.agents,
      {
        id: 'a2',
        hostname: 'agent-2',
        zoneId: 'z2',
        ...NO_ENGINE,
        cores: 1,
        memory: 1,
        coresOverride: 3,
        memoryOverride: 7,
      },
    ],
    // Session policies off their defaults, each kind of field once.
    images: base.images.map((image, i) =>
      i === 0
        ? { ...image, allowUploads: false, maxUploadBytes: 2 ** 53 - 1, allowClipboardDown: false }
        : { ...image, allowDownloads: false, maxClipboardBytes: 1 },
    ),
    groups: base.groups.map((group, i) =>
      i === 0 ? { ...group, allowClipboardUp: false } : group,
    ),
    users: [{ id: 'u-ada', username: 'ada@example.com' }],
    mappings: TRICKY_CONTENTS.map((content, i) => ({
      id: `m${i}`,
      target:
        i % 3 === 0
          ? { type: 'image', id: 'i-term' }
          : i % 3 === 1
            ? { type: 'group', id: 'g-all' }
            : { type: 'user', id: 'u-ada' },
      name: `mapping ${i}: "${i}"`,
      description: i % 2 ? `described #${i}` : '',
      destination: `/opt/files/${i}.txt`,
      executable: i % 2 === 0,
      content,
    })),
  });
}

describe('exportSettings', () => {
  it('writes a file that applies to its own database as no changes, with and without prune', () => {
    const current = trickyCurrent();
    const desired = desiredFrom(exportSettings(current));
    expect(planSettings(desired, current, { prune: false })).toEqual({ changes: [], problems: [] });
    expect(planSettings(desired, current, { prune: true })).toEqual({ changes: [], problems: [] });
  });

  it('keeps every content byte for byte', () => {
    const desired = desiredFrom(exportSettings(trickyCurrent()));
    const contents = desired.mappings
      .sort(
        (a, b) => Number(a.destination.match(/\d+/)?.[0]) - Number(b.destination.match(/\d+/)?.[0]),
      )
      .map((m) => m.content);
    expect(contents).toEqual(TRICKY_CONTENTS);
  });

  it('names things, never ids, and leaves out workspaces, groups and users with nothing to set', () => {
    const text = exportSettings(currentSettings());
    expect(text).not.toMatch(/i-term|i-fox|g-all|u-ada|z1|a1/);
    expect(parseSettingsText(text).value).toEqual({
      version: 1,
      zones: [
        { name: 'default', proxy_hostname: 'desk.example.com', proxy_path: '/', proxy_port: 0 },
      ],
      agents: [
        {
          hostname: 'agent-1',
          zone: 'default',
          cores: 8,
          memory: 16_000_000_000,
          cores_override: 0,
          memory_override: 0,
        },
      ],
      workspaces: [{ name: 'kasmweb/firefox:1.16.0', persistent_profile_path: '/p/{username}' }],
      groups: [],
      users: [],
      sso_providers: [],
    });
  });

  it('writes scripts as literal blocks that read like the script', () => {
    const current = currentSettings({
      mappings: [
        currentMapping({
          id: 'm',
          target: DEV,
          name: 's',
          destination: '/s.sh',
          executable: true,
          content: '#!/bin/sh\necho "$HOME"\n',
        }),
      ],
    });
    expect(exportSettings(current)).toContain(
      '        content: |\n          #!/bin/sh\n          echo "$HOME"\n',
    );
  });
});
