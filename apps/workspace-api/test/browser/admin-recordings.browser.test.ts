import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '@platform/testing';
import { ADMINISTRATORS, createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { COLOURS, syntheticRecording } from '../recording-factories';
import { checkPage, signInAt } from './admin-pages';
import { LONG, readyDespiteLostLoads, useBrowserPages } from './browser-fixture';

/** How often a wait looks at the canvas again (its limit is LONG). */
const POLL_MS = 100;

// The console's Recordings section in Chromium: the list, filters, the player (noVNC's decoders
// fed from the file) playing and seeking, the download, and who may see any of it.
jest.setTimeout(4 * LONG);

let h: Harness;
let dir: string;
let origin: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'recordings-console-'));
  h = await createHarness({ RECORDINGS_DIR: dir });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await createMember(h, ADMINISTRATORS, 'root');
  const auditors = await createGroup(h, { name: 'Auditors', permissions: ['audit.view'] });
  await createMember(h, auditors.group_id, 'auditor');
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});
const pages = useBrowserPages(() => origin);

/** The colour noVNC's canvas shows at its middle (red, green, blue). */
const shown = (page: Page) =>
  page.locator('#recording-player canvas').evaluate((element) => {
    const canvas = element as unknown as {
      width: number;
      height: number;
      getContext(kind: '2d'): { getImageData(...at: number[]): { data: number[] } } | null;
    };
    const context = canvas.getContext('2d');
    if (!context) return [];
    const [r, g, b] = context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
    return [r, g, b];
  });

/**
 * The player's error once it is ready or has failed (null when it plays), reloading a page whose
 * loads were lost (readyDespiteLostLoads); a failure names the loads that failed.
 */
async function playerError(page: Page) {
  const settled = page.locator(
    '#recording-player[data-ready="true"], #recording-player[data-error]',
  );
  await readyDespiteLostLoads(page, settled, LONG);
  return page.locator('#recording-player').getAttribute('data-error');
}

const seekTo = (page: Page, ms: number) =>
  page.locator('[data-action="seek"]').evaluate((element, value: number) => {
    const range = element as unknown as { value: string; dispatchEvent(event: Event): void };
    range.value = String(value);
    range.dispatchEvent(new Event('input'));
  }, ms);

describe('the Recordings section', () => {
  it('lists recordings filtered by user, plays one, seeks to any second, and audits the watching', async () => {
    await syntheticRecording(dir, h, {
      username: 'grace',
      startedAt: new Date('2027-01-01T09:00:00Z'),
    });
    await syntheticRecording(dir, h, { username: 'ada' });
    const { page } = pages;
    await signInAt(pages, origin, '/admin/recordings', 'root');
    await page.getByText('2 recordings.').waitFor();
    await page.getByLabel('User').fill('grace');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('1 recording.').waitFor();
    await checkPage(page, 'admin-recordings');

    await page.getByRole('link', { name: /Play the recording of grace/ }).click();
    await page.getByText('its digest chain verifies').waitFor();
    expect(await playerError(page)).toBeNull();
    // Forward past the keyframe (3 s), backward before it, and to the last second.
    for (const second of [0, 4, 1, 2, 5, 3]) {
      await seekTo(page, second * 1000 + 500);
      await waitFor(async () => expect(await shown(page)).toEqual(COLOURS[second]), LONG, POLL_MS);
    }

    await seekTo(page, 0);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByLabel('Speed').selectOption('4');
    await waitFor(async () => expect(await shown(page)).toEqual(COLOURS[5]), LONG, POLL_MS);
    await page.getByRole('button', { name: 'Play' }).waitFor();

    const log = await h.call('get_audit_log', { operation: 'recording_viewed' });
    expect(log.json().events[0]).toMatchObject({
      channel: 'console',
      actor: { kind: 'user', name: 'root' },
      after: { purpose: 'play', username: 'grace' },
    });
  });

  it('plays a recording whose file the network lost twice on the way', async () => {
    await syntheticRecording(dir, h, { username: 'lin' });
    const { page } = pages;
    let lost = 0;
    await page.route('**/admin/recordings/*/file', (route) =>
      lost++ < 2 ? route.abort('connectionreset') : route.continue(),
    );
    await signInAt(pages, origin, '/admin/recordings', 'root');
    await page.getByRole('link', { name: /Play the recording of lin/ }).click();
    // Lost twice, then played: a player that gave up would show its error here, not a reload.
    expect(await playerError(page)).toBeNull();
    expect(lost).toBeGreaterThanOrEqual(3);
  });

  it('downloads a recording with its digests', async () => {
    const { digest } = await syntheticRecording(dir, h);
    const { page } = pages;
    await signInAt(pages, origin, '/admin/recordings', 'root');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download' }).first().click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^[0-9a-f]{32}\.rec$/);
    const row = await h.db.recording.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
    expect(row.digest).toBe(digest);
  });

  it('is not shown to one whose groups do not grant recordings.view', async () => {
    const { page } = pages;
    await signInAt(pages, origin, '/admin/audit', 'auditor');
    expect(await page.getByRole('link', { name: 'Recordings' }).count()).toBe(0);
    const res = await page.goto(`${origin}/admin/recordings`);
    expect(res?.status()).toBe(403);
  });
});
