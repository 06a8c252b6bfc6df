// The statements the hot paths send, built by the services' own code, with the index each plan
// must use. The bench EXPLAINs them on the seeded database (bench/lib/plans.mjs).
import { selectEventsStatement } from '../../apps/calendar-api/src/events/events.repository';
import { listUsersStatement, pageQuery } from '../../apps/workspace-api/src/users/users-list.sql';
import {
  findUserStatement,
  updateUserStatement,
} from '../../apps/workspace-api/src/users/users.sql';

export interface Sample {
  /** A user's dashed id, created_at (ISO) and username. */
  user: { id: string; createdAt: string; username: string };
  lastPage: number;
  /** A day and the day six days later. */
  day: string;
  weekEnd: string;
  /** The same in the year of the recurring series. */
  seriesDay: string;
  seriesWeekEnd: string;
}

export interface Statement {
  name: string;
  text: string;
  values: unknown[];
  /** Index names the plan must use, and nodes it must not contain. */
  uses: string[];
  never: string[];
  /** Writes are only EXPLAINed, not run. */
  analyze: boolean;
}

const NO_BIG_SCANS = ['Seq Scan on user', 'Seq Scan on calendar_event'];
const users = pageQuery;

function statement(
  name: string,
  sql: { text: string; values: unknown[] },
  uses: string[],
  analyze = true,
): Statement {
  return { name, text: sql.text, values: sql.values, uses, never: NO_BIG_SCANS, analyze };
}

export function statements(sample: Sample): Statement[] {
  const { user, lastPage, day, weekEnd, seriesDay, seriesWeekEnd } = sample;
  const cursor = Buffer.from(JSON.stringify(['createdAt', user.createdAt, user.id])).toString(
    'base64url',
  );
  return [
    statement('get_user by id', findUserStatement('workspace', { id: user.id }), ['user_pkey']),
    statement('get_user by username', findUserStatement('workspace', { username: user.username }), [
      'user_username_key',
    ]),
    statement(
      'update_user',
      updateUserStatement('workspace', user.id, { firstName: 'Plan' }),
      ['user_pkey'],
      false,
    ),
    statement('get_users page 0', listUsersStatement('workspace', users({ page: 0 })), [
      'user_created_at_id_idx',
    ]),
    statement(
      `get_users page ${lastPage}`,
      listUsersStatement('workspace', users({ page: lastPage })),
      ['user_created_at_id_idx'],
    ),
    statement('get_users after a cursor', listUsersStatement('workspace', users({ cursor })), [
      'user_created_at_id_idx',
    ]),
    statement(
      'get_users by username',
      listUsersStatement('workspace', users({ page: lastPage, sort_by: 'username' })),
      ['user_username_key'],
    ),
    statement(
      'get_users by organization',
      listUsersStatement('workspace', users({ page: 3, sort_by: 'organization' })),
      ['user_organization_id_idx'],
    ),
    statement('GET /events/{date}', selectEventsStatement('calendar', { date: day }), [
      'calendar_event_date_id_idx',
      'calendar_event_series_end_date_idx',
    ]),
    statement(
      'GET /events/range',
      selectEventsStatement('calendar', { start: day, end: weekEnd }),
      ['calendar_event_date_id_idx', 'calendar_event_series_end_date_idx'],
    ),
    statement(
      'GET /events/range, recurring series',
      selectEventsStatement('calendar', { start: seriesDay, end: seriesWeekEnd }),
      ['calendar_event_date_id_idx', 'calendar_event_series_end_date_idx'],
    ),
  ];
}
