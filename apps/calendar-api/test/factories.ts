import type { LightMyRequestResponse } from 'fastify';
import type { EventResponse, NewEventBody } from '../src/events';
import type { Harness } from './harness';

let counter = 0;

/** An add_event body with a unique title. */
export function eventInput(overrides: Partial<NewEventBody> = {}): NewEventBody {
  counter += 1;
  return { date: '2025-03-03', title: `Event ${counter}`, ...overrides };
}

/** Adds an event through the API and answers it as the API returned it. */
export async function addEvent(
  h: Harness,
  overrides: Partial<NewEventBody> = {},
): Promise<EventResponse> {
  const res = await h.post('add_event', eventInput(overrides));
  expect(res.statusCode).toBe(201);
  return res.json();
}

export const titles = (res: LightMyRequestResponse): string[] =>
  (res.json() as EventResponse[]).map((e) => `${e.date} ${e.title}`);

/** The contract's worked example: a weekly plan whose events every layer must agree on. */
export const WORKED_EXAMPLE = [
  'Week of 3/3/2025',
  '[Mon]: Unit 5 intro',
  '• Read ch. 5',
  '• Slides posted',
  '[Tue - Thu]: * Lab 3 check-in',
  '• Pair programming',
  '[Fri]: ** Unit 5 quiz',
].join('\n');
