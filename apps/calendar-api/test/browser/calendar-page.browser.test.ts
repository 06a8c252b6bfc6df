import path from 'node:path';
import { seriousViolations, takeScreenshots, useBrowserPages } from '@platform/testing/browser';
import type { EventResponse } from '../../src/events';
import { addEvent } from '../factories';
import { createHarness, type Harness } from '../harness';

/** Screenshots at desktop and phone width; git ignores the folder. */
const SCREENSHOT_DIR = path.resolve(__dirname, '../../screenshots');
const LONG = 30_000;

let h: Harness;
let origin: string;

beforeAll(async () => {
  h = await createHarness({ CALENDAR_NAME: 'CSA plan' });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => h?.close());
beforeEach(() => h.reset());
const pages = useBrowserPages(() => origin);

/** A week of March 2025 as a class would have it, and a weekly lab through the month. */
async function seedMarch() {
  const intro = await addEvent(h, { date: '2025-03-03', title: 'Unit 5 intro', period: 'CSA' });
  const lab = await addEvent(h, {
    date: '2025-03-05',
    title: 'Pair lab',
    type: 'check-in',
    period: 'CSA',
    recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20250331', exdates: [] },
  });
  const quiz = await addEvent(h, {
    date: '2025-03-07',
    title: 'Unit 5 quiz',
    type: 'grade',
    period: 'CSP',
    description: 'Chapters 4 and 5',
  });
  return { intro, lab, quiz };
}

const dayCell = (date: string) => pages.page.locator(`td.fc-daygrid-day[data-date="${date}"]`);
const titlesOn = (date: string) => dayCell(date).locator('.fc-event-title').allTextContents();

async function openMarch() {
  await pages.page.goto(`${origin}/?date=2025-03-10`);
  await pages.page.locator('.fc-event').first().waitFor({ timeout: LONG });
}

async function useToken() {
  await pages.page.getByLabel('Token to move events').fill(h.token);
  await pages.page.getByRole('button', { name: 'Use token' }).click();
  await pages.page.locator('.fc-event-draggable').first().waitFor({ timeout: LONG });
}

/** Drags the event titled `title` onto the day cell of `date`, with the mouse, in small steps. */
async function drag(title: string, date: string) {
  const from = await pages.page.locator('.fc-event', { hasText: title }).first().boundingBox();
  const to = await dayCell(date).boundingBox();
  if (!from || !to) throw new Error('event or day not on the page');
  await pages.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await pages.page.mouse.down();
  await pages.page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, {
    steps: 5,
  });
  await pages.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 20 });
  await pages.page.mouse.up();
}

describe('the calendar page in Chromium', () => {
  it('shows the month with each event on its day, coloured by type, with the links', async () => {
    await seedMarch();
    await openMarch();
    expect(await pages.page.locator('.fc-toolbar-title').textContent()).toBe('March 2025');
    expect(await titlesOn('2025-03-03')).toEqual(['Unit 5 intro']);
    expect(await titlesOn('2025-03-07')).toEqual(['Unit 5 quiz']);
    // Code for the page is a string: this project is typed for Node, not the DOM.
    const colours = (await pages.page.evaluate(
      "[...document.querySelectorAll('.fc-event')].map((el) => getComputedStyle(el).backgroundColor)",
    )) as string[];
    expect(new Set(colours).size).toBe(3);
    expect(await pages.page.getByRole('link', { name: /Subscribe/ }).getAttribute('href')).toBe(
      '/api/calendar/calendar.ics',
    );
    expect(await pages.page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe(
      '/docs',
    );
    expect(await seriousViolations(pages.page)).toEqual([]);
    await takeScreenshots(pages.page, SCREENSHOT_DIR, 'calendar-month');
  });

  it('shows a recurring event on each week of the month', async () => {
    await seedMarch();
    await openMarch();
    for (const date of ['2025-03-05', '2025-03-12', '2025-03-19', '2025-03-26']) {
      expect(await titlesOn(date)).toEqual(['Pair lab']);
    }
    expect(await titlesOn('2025-03-04')).toEqual([]);
  });

  it('hides the other events when filtered by type or by period', async () => {
    await seedMarch();
    await openMarch();
    await pages.page.getByLabel('Type', { exact: true }).selectOption('grade');
    await pages.page
      .locator('.fc-event', { hasText: 'Pair lab' })
      .first()
      .waitFor({ state: 'detached' });
    expect(await pages.page.locator('.fc-event-title').allTextContents()).toEqual(['Unit 5 quiz']);
    await pages.page.getByLabel('Type', { exact: true }).selectOption('');
    await pages.page.getByLabel('Period', { exact: true }).selectOption('CSA');
    await pages.page
      .locator('.fc-event', { hasText: 'Unit 5 quiz' })
      .waitFor({ state: 'detached' });
    expect(await titlesOn('2025-03-03')).toEqual(['Unit 5 intro']);
    expect(await pages.page.locator('.fc-event', { hasText: 'Pair lab' }).count()).toBe(4);
  });

  it('shows the details of an event clicked, and lists events in the list view', async () => {
    await seedMarch();
    await openMarch();
    await pages.page.locator('.fc-event', { hasText: 'Unit 5 quiz' }).click();
    const dialog = pages.page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Unit 5 quiz');
    expect(await dialog.locator('dd').allTextContents()).toEqual([
      '2025-03-07',
      'grade',
      'CSP',
      'Chapters 4 and 5',
    ]);
    expect(await seriousViolations(pages.page)).toEqual([]);
    await takeScreenshots(pages.page, SCREENSHOT_DIR, 'calendar-details');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await pages.page.getByRole('button', { name: 'List' }).click();
    await pages.page.locator('.fc-list-event').first().waitFor();
    expect(await pages.page.locator('.fc-list-event-title').count()).toBe(6);
    await pages.page.getByRole('button', { name: 'Week' }).click();
    await pages.page.locator('.fc-dayGridWeek-view').waitFor();
  });

  it('is read-only without a token: nothing can be dragged', async () => {
    await seedMarch();
    await openMarch();
    expect(await pages.page.locator('.fc-event-draggable').count()).toBe(0);
    expect(await pages.page.getByLabel('Token to move events').isVisible()).toBe(true);
  });

  it('moves an event dragged to another day, through the API', async () => {
    const { quiz } = await seedMarch();
    await openMarch();
    await useToken();
    // A recurring event's occurrences are not dragged one by one.
    expect(await pages.page.locator('.fc-event-draggable', { hasText: 'Pair lab' }).count()).toBe(
      0,
    );
    await drag('Unit 5 quiz', '2025-03-14');
    await pages.page.getByText('Moved "Unit 5 quiz" to 2025-03-14.').waitFor({ timeout: LONG });
    const moved = (await h.get(`event/${quiz.id}`)).json() as EventResponse;
    expect(moved.date).toBe('2025-03-14');
    expect(await titlesOn('2025-03-14')).toEqual(['Unit 5 quiz']);
    await takeScreenshots(pages.page, SCREENSHOT_DIR, 'calendar-moved');
  });

  it('reports an edit made elsewhere since the page loaded, and moves nothing', async () => {
    const { quiz } = await seedMarch();
    await openMarch();
    await useToken();
    const edit = await h.request({
      method: 'PATCH',
      url: `event/${quiz.id}`,
      payload: { title: 'Unit 5 test' },
    });
    expect(edit.statusCode).toBe(200);
    await drag('Unit 5 quiz', '2025-03-14');
    await pages.page.getByText(/changed by someone else.*412/).waitFor({ timeout: LONG });
    expect(((await h.get(`event/${quiz.id}`)).json() as EventResponse).date).toBe('2025-03-07');
    await takeScreenshots(pages.page, SCREENSHOT_DIR, 'calendar-conflict');
  });
});
