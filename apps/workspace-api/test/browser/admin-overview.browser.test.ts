import { VALID_PASSWORD } from '../factories';
import { ADMINISTRATORS, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { seedFleet } from '../kasm-factories';
import { checkPage } from './admin-pages';
import { LONG, seriousViolations, useBrowserPages } from './browser-fixture';

jest.setTimeout(4 * LONG);

/** The page's window, as far as this test reads it (the project is typed for Node, not the DOM). */
type Styled = { getComputedStyle(element: unknown): { fill: string } };

let h: Harness;
let origin: string;

beforeAll(async () => {
  h = await createHarness();
  await seedFleet(h);
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await createMember(h, ADMINISTRATORS, 'root');
});
afterAll(() => h?.close());
const pages = useBrowserPages(() => origin);

describe('the console overview in Chromium', () => {
  it('opens the console on the overview, whose charts draw the seeded fleet', async () => {
    const { page } = pages;
    await page.goto(`${origin}/admin`);
    await page.getByLabel('Username').fill('root');
    await page.getByLabel('Password').fill(VALID_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/admin/overview`, { timeout: LONG });
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    expect(await nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe(
      'page',
    );

    // By workspace: Desk's three sessions fill its bar, a third each; Code's two, two thirds.
    const byWorkspace = page.getByRole('figure', { name: 'By workspace' }).getByRole('listitem');
    expect(await byWorkspace.allInnerTexts()).toEqual([
      expect.stringMatching(/Desk\s+3\s+1 active, 1 starting, 1 paused or stopped/),
      expect.stringMatching(/Code\s+2\s+1 idle, 1 staged, no user yet/),
    ]);
    const drawn = async (row: number, cls: string) =>
      (await byWorkspace.nth(row).locator(`rect.${cls}`).boundingBox())?.width ?? 0;
    const track = (await byWorkspace.nth(0).locator('rect.track').boundingBox())?.width ?? 0;
    expect(track).toBeGreaterThan(50);
    expect((await drawn(0, 'a-active')) / track).toBeCloseTo(1 / 3, 1);
    expect((await drawn(1, 'a-idle')) / track).toBeCloseTo(1 / 3, 1);
    // The colours come from admin.css, which the CSP lets in.
    const fill = await byWorkspace
      .nth(0)
      .locator('rect.a-active')
      .evaluate((rect) => (globalThis as unknown as Styled).getComputedStyle(rect).fill);
    expect(fill).toBe('rgb(11, 92, 173)');

    const byAgent = page.getByRole('figure', { name: 'By agent' }).getByRole('listitem');
    expect(await byAgent.allInnerTexts()).toEqual([
      expect.stringMatching(/south-1\s+3\s/),
      expect.stringMatching(/north-1\s+2\s/),
    ]);
    const oldest = page
      .getByRole('figure', { name: /Who, and for how long/ })
      .getByRole('listitem');
    expect(await oldest.count()).toBe(4);
    expect(await oldest.first().innerText()).toMatch(/dan\s+· Desk on south-1/);

    const capacity = page.getByRole('figure', { name: "Each agent's use against its capacity" });
    const southCores = capacity.getByRole('listitem').filter({ hasText: 'south-1 cores' });
    expect(await southCores.innerText()).toMatch(/3 of 4\s+\(75%\)/);
    const used = (await southCores.locator('rect.u-sessions').boundingBox())?.width ?? 0;
    const whole = (await southCores.locator('rect.track').boundingBox())?.width ?? 1;
    expect(used / whole).toBeCloseTo(0.75, 1);

    // The last day: an image with its summary, and failed launches drawn in two hours.
    const launches = page.getByRole('img', { name: /Launches and failures per hour/ });
    expect(await launches.getAttribute('aria-labelledby')).toBe('launches-title launches-desc');
    expect(await page.locator('#launches-desc').textContent()).toMatch(/^8 launches, 2 failed/);
    const failedHours = await launches
      .locator('rect.l-failed')
      .evaluateAll((rects) => rects.filter((r) => Number(r.getAttribute('height')) > 0).length);
    expect(failedHours).toBe(2);
    await page.getByText('The hours as a table').click();
    expect(
      await page.getByRole('table', { name: 'Launches per hour' }).getByRole('row').count(),
    ).toBe(25);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByText('The hours as a table').click();

    await checkPage(page, 'admin-overview');
  });
});
