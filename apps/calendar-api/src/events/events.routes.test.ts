import { problemFields } from '@platform/testing';
import { addEvent, eventInput } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /add_event', () => {
  it('creates an event with defaults and answers 201 with its Location', async () => {
    const res = await h.post('add_event', { date: '2025-03-03', title: '  Unit 5 intro ' });
    expect(res.statusCode).toBe(201);
    const event = res.json();
    expect(event).toEqual({
      id: expect.any(Number),
      date: '2025-03-03',
      title: 'Unit 5 intro',
      description: '',
      type: 'general',
      period: null,
      created_at: expect.stringMatching(ISO_UTC),
      updated_at: expect.stringMatching(ISO_UTC),
      source: null,
      recurrence: null,
    });
    expect(res.headers.location).toBe(`/api/calendar/event/${event.id}`);
    expect((await h.get(`event/${event.id}`)).json()).toEqual(event);
  });

  it('keeps every field given', async () => {
    const input = eventInput({ description: 'Bring a pencil', type: 'grade', period: 'CSA' });
    expect(await addEvent(h, input)).toMatchObject(input);
  });

  it.each([
    ['a date that does not exist', { date: '2025-02-30' }, 'date'],
    ['a US-style date', { date: '03/03/2025' }, 'date'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a type that is not a slug', { type: 'Check In' }, 'type'],
    ['a period over 32 characters', { period: 'p'.repeat(33) }, 'period'],
    ['a description over 5000 characters', { description: 'd'.repeat(5001) }, 'description'],
  ])('answers 400 VALIDATION_FAILED for %s', async (_case, change, field) => {
    const res = await h.post('add_event', eventInput(change));
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field, message: expect.any(String) }],
    });
  });

  it('answers 400 when the date or title is missing', async () => {
    const res = await h.post('add_event', {});
    expect(res.statusCode).toBe(400);
    expect(problemFields(res)).toEqual(['date', 'title']);
  });
});

describe('GET /event/{id}', () => {
  it('answers 404 EVENT_NOT_FOUND for an id that matches no event', async () => {
    const res = await h.get('event/999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'EVENT_NOT_FOUND',
      detail: 'No event matches id 999',
    });
  });

  it.each(['abc', '0', '-1', '99999999999'])('answers 400 for the id %j', async (id) => {
    expect((await h.get(`event/${id}`)).statusCode).toBe(400);
  });

  it('sends a strong ETag that changes when the event changes', async () => {
    const event = await addEvent(h);
    const first = (await h.get(`event/${event.id}`)).headers.etag;
    expect(first).toMatch(/^"[^"]+"$/);
    expect((await h.get(`event/${event.id}`)).headers.etag).toBe(first);
    await h.request({ method: 'PATCH', url: `event/${event.id}`, payload: { title: 'Renamed' } });
    expect((await h.get(`event/${event.id}`)).headers.etag).not.toBe(first);
  });
});

describe('PATCH /event/{id}', () => {
  it('changes only the fields present and answers the new ETag', async () => {
    const event = await addEvent(h, { description: 'keep me', period: 'CSA' });
    const res = await h.request({
      method: 'PATCH',
      url: `event/${event.id}`,
      payload: { date: '2025-03-04', title: ' Moved ', period: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      date: '2025-03-04',
      title: 'Moved',
      description: 'keep me',
      period: null,
    });
    expect(res.headers.etag).toBe((await h.get(`event/${event.id}`)).headers.etag);
  });

  it('applies the change when If-Match holds the current ETag', async () => {
    const event = await addEvent(h);
    const { etag } = (await h.get(`event/${event.id}`)).headers;
    const res = await h.request({
      method: 'PATCH',
      url: `event/${event.id}`,
      headers: { 'if-match': String(etag) },
      payload: { description: 'checked' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().description).toBe('checked');
  });

  it('answers 412 and changes nothing when If-Match holds an old ETag', async () => {
    const event = await addEvent(h);
    const stale = String((await h.get(`event/${event.id}`)).headers.etag);
    await h.request({
      method: 'PATCH',
      url: `event/${event.id}`,
      payload: { title: 'Someone else' },
    });
    const res = await h.request({
      method: 'PATCH',
      url: `event/${event.id}`,
      headers: { 'if-match': stale },
      payload: { title: 'Mine' },
    });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toMatchObject({ code: 'PRECONDITION_FAILED', status: 412 });
    expect((await h.get(`event/${event.id}`)).json().title).toBe('Someone else');
  });

  it('lets exactly one of two concurrent changes with the same If-Match win', async () => {
    const event = await addEvent(h);
    const etag = String((await h.get(`event/${event.id}`)).headers.etag);
    const patch = (title: string) =>
      h.request({
        method: 'PATCH',
        url: `event/${event.id}`,
        headers: { 'if-match': etag },
        payload: { title },
      });
    const results = await Promise.all([patch('A'), patch('B'), patch('C')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
  });

  it('answers 400 for an empty change and for 2025-02-30', async () => {
    const event = await addEvent(h);
    const empty = await h.request({ method: 'PATCH', url: `event/${event.id}`, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([
      { field: 'body', message: expect.stringContaining('at least one') },
    ]);
    const badDate = await h.request({
      method: 'PATCH',
      url: `event/${event.id}`,
      payload: { date: '2025-02-30' },
    });
    expect(badDate.statusCode).toBe(400);
  });

  it('answers 404 for an id that matches no event', async () => {
    const res = await h.request({ method: 'PATCH', url: 'event/4242', payload: { title: 'x' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('EVENT_NOT_FOUND');
  });
});

describe('DELETE /event/{id}', () => {
  it('deletes only that event and answers it', async () => {
    const [doomed, kept] = [await addEvent(h), await addEvent(h)];
    const res = await h.request({ method: 'DELETE', url: `event/${doomed.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(doomed);
    expect((await h.get(`event/${doomed.id}`)).statusCode).toBe(404);
    expect((await h.get(`event/${kept.id}`)).statusCode).toBe(200);
  });

  it('answers 412 and keeps the event when If-Match does not match', async () => {
    const event = await addEvent(h);
    const res = await h.request({
      method: 'DELETE',
      url: `event/${event.id}`,
      headers: { 'if-match': '"stale"' },
    });
    expect(res.statusCode).toBe(412);
    expect((await h.get(`event/${event.id}`)).statusCode).toBe(200);
  });

  it('deletes with If-Match: * or the current ETag', async () => {
    const [a, b] = [await addEvent(h), await addEvent(h)];
    const etag = String((await h.get(`event/${b.id}`)).headers.etag);
    const star = await h.request({
      method: 'DELETE',
      url: `event/${a.id}`,
      headers: { 'if-match': '*' },
    });
    const tagged = await h.request({
      method: 'DELETE',
      url: `event/${b.id}`,
      headers: { 'if-match': etag },
    });
    expect([star.statusCode, tagged.statusCode]).toEqual([200, 200]);
    expect(await h.db.calendarEvent.count()).toBe(0);
  });

  it('answers 404 for an id that matches no event', async () => {
    const res = await h.request({ method: 'DELETE', url: 'event/4242' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('EVENT_NOT_FOUND');
  });
});
