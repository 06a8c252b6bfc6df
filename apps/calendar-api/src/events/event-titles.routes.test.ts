import { addEvent } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

/** Three days of "Lab 3" (like a `[Tue - Thu]` line), one "Lab 3b" and one "lab 3" that must stay untouched. */
async function arrangeLabs() {
  for (const date of ['2025-03-04', '2025-03-05', '2025-03-06'])
    await addEvent(h, { date, title: 'Lab 3' });
  await addEvent(h, { date: '2025-03-05', title: 'Lab 3b' });
  await addEvent(h, { date: '2025-03-05', title: 'lab 3' });
}

async function allEvents() {
  const rows = await h.db.calendarEvent.findMany({ orderBy: [{ date: 'asc' }, { id: 'asc' }] });
  return rows.map((e) => `${e.date.toISOString().slice(0, 10)} ${e.title} [${e.description}]`);
}

const edit = (title: string, payload: object, query = '') =>
  h.request({ method: 'PUT', url: `edit/${encodeURIComponent(title)}${query}`, payload });
const remove = (title: string, query = '') =>
  h.request({ method: 'DELETE', url: `delete/${encodeURIComponent(title)}${query}` });

describe('PUT /edit/{title}', () => {
  it('renames and re-describes every event with exactly that title, and only those', async () => {
    await arrangeLabs();
    const res = await edit('Lab 3', { newTitle: 'Lab 3 check-in', description: 'Pairs' });
    expect(res.statusCode).toBe(200);
    expect(res.json().updated).toBe(3);
    expect(res.json().events.map((e: { date: string }) => e.date)).toEqual([
      '2025-03-04',
      '2025-03-05',
      '2025-03-06',
    ]);
    expect(await allEvents()).toEqual([
      '2025-03-04 Lab 3 check-in [Pairs]',
      '2025-03-05 Lab 3 check-in [Pairs]',
      '2025-03-05 Lab 3b []',
      '2025-03-05 lab 3 []',
      '2025-03-06 Lab 3 check-in [Pairs]',
    ]);
  });

  it('accepts title for newTitle and leaves the description when none is given', async () => {
    await addEvent(h, { title: 'Quiz', description: 'Unit 5' });
    const res = await edit('Quiz', { title: 'Unit 5 quiz' });
    expect(res.json()).toMatchObject({
      updated: 1,
      events: [{ title: 'Unit 5 quiz', description: 'Unit 5' }],
    });
  });

  it('changes only the description when only it is given', async () => {
    await addEvent(h, { title: 'Quiz' });
    const res = await edit('Quiz', { description: 'Bring a calculator' });
    expect(res.json().events[0]).toMatchObject({
      title: 'Quiz',
      description: 'Bring a calculator',
    });
  });

  it('narrows to one date with ?date=', async () => {
    await arrangeLabs();
    const res = await edit('Lab 3', { description: 'Only Wednesday' }, '?date=2025-03-05');
    expect(res.json().updated).toBe(1);
    expect((await allEvents()).filter((e) => e.includes('Only Wednesday'))).toEqual([
      '2025-03-05 Lab 3 [Only Wednesday]',
    ]);
  });

  it('finds a title holding a slash, a percent sign and non-ASCII letters', async () => {
    await addEvent(h, { title: 'Ch. 5/6 — 100% réussite' });
    const res = await edit('Ch. 5/6 — 100% réussite', { description: 'ok' });
    expect(res.statusCode).toBe(200);
    expect(res.json().updated).toBe(1);
  });

  it('finds a title of the longest allowed length, 200 characters', async () => {
    const title = `${'x'.repeat(190)} 🎉 quiz!`.slice(0, 200);
    await addEvent(h, { title });
    expect((await edit(title, { description: 'long' })).json().updated).toBe(1);
    expect((await remove(title)).json().deleted).toBe(1);
  });

  it('answers 404 EVENT_NOT_FOUND when no event has the title (or not on that date)', async () => {
    await arrangeLabs();
    for (const res of [
      await edit('Lab 4', { description: 'x' }),
      await edit('Lab 3', { description: 'x' }, '?date=2025-03-07'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('EVENT_NOT_FOUND');
    }
  });

  it('answers 400 for a body without newTitle, title or description, and for a bad ?date=', async () => {
    await arrangeLabs();
    expect((await edit('Lab 3', {})).statusCode).toBe(400);
    expect((await edit('Lab 3', { newTitle: '  ' })).statusCode).toBe(400);
    expect((await edit('Lab 3', { description: 'x' }, '?date=2025-02-30')).statusCode).toBe(400);
    expect((await edit('Lab 3', { description: 'x' }, '?date=03/05/2025')).statusCode).toBe(400);
  });
});

describe('DELETE /delete/{title}', () => {
  it('deletes every event with exactly that title, and only those', async () => {
    await arrangeLabs();
    const res = await remove('Lab 3');
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toBe(3);
    expect(res.json().events.map((e: { title: string }) => e.title)).toEqual([
      'Lab 3',
      'Lab 3',
      'Lab 3',
    ]);
    expect(await allEvents()).toEqual(['2025-03-05 Lab 3b []', '2025-03-05 lab 3 []']);
  });

  it('narrows to one date with ?date=', async () => {
    await arrangeLabs();
    const res = await remove('Lab 3', '?date=2025-03-04');
    expect(res.json()).toMatchObject({
      deleted: 1,
      events: [{ date: '2025-03-04', title: 'Lab 3' }],
    });
    expect((await allEvents()).filter((e) => e.includes(' Lab 3 '))).toEqual([
      '2025-03-05 Lab 3 []',
      '2025-03-06 Lab 3 []',
    ]);
  });

  it('answers 404 EVENT_NOT_FOUND when nothing matches', async () => {
    await arrangeLabs();
    const res = await remove('Lab 9');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'EVENT_NOT_FOUND',
      detail: 'No event matches title "Lab 9"',
    });
    expect(await h.db.calendarEvent.count()).toBe(5);
  });

  it('answers 400 for ?date=2025-02-30', async () => {
    expect((await remove('Lab 3', '?date=2025-02-30')).statusCode).toBe(400);
  });
});
