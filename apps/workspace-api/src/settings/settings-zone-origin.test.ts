import { settingsDir, type SettingsDir } from '../../test/settings-files';
import { createHarness, type Harness } from '../../test/harness';
import { enginePolicy } from '../engines';
import { consoleOriginOf } from '../zones';
import { createSettingsRepository } from './settings.repository';
import { createSettingsService, type SettingsService } from './settings.service';

let h: Harness;
let files: SettingsDir;
let settings: SettingsService;
beforeAll(async () => {
  [h, files] = await Promise.all([
    createHarness({ SESSION_PORT: '3003', PORT: '3001' }),
    settingsDir(),
  ]);
  settings = createSettingsService({
    settings: createSettingsRepository(h.data),
    enginePolicy: enginePolicy(h.config),
    consoleOrigin: consoleOriginOf(h.config),
  });
});
afterAll(async () => {
  await h?.close();
  await files?.remove();
});

describe('settings apply: zones on the console’s origin', () => {
  it('refuses a zone whose sessions would share the console’s origin, at its line, and writes nothing', async () => {
    const file = await files.write(
      'zones.yaml',
      `version: 1
zones:
  - name: sessions
    proxy_hostname: $request_host$
    proxy_port: 3003
  - name: console
    proxy_hostname: $request_host$
    proxy_port: 0
`,
    );
    const result = await settings.apply(file, { prune: false, dryRun: false });
    expect(result.status).toBe('invalid');
    expect(result.problems).toEqual([
      expect.objectContaining({
        line: 6,
        message: expect.stringMatching(/console’s origin.*proxy_port 3003 \(SESSION_PORT\)/),
      }),
    ]);
    expect(await h.db.zone.count()).toBe(0);
  });
});
