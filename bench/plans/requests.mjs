// The hot paths' requests, sent to the running services through the capturing proxy, with the
// index each one's statements must use. The plan check EXPLAINs the statements the services
// actually sent for each (bench/lib/plans.mjs).

/** No request's statements may scan the big tables sequentially. */
export const NEVER = ['Seq Scan on user', 'Seq Scan on calendar_event'];

/**
 * A JSON answer of a service; `body(previous)` gets the previous request's (null for the first).
 * @typedef {Record<string, unknown>} Answer
 */

/**
 * A workspace-api public API call (POST with the credentials), or a calendar-api GET of `path`;
 * `uses`: the indexes its statements must use.
 * @typedef {{ name: string, app: 'workspace', operation: string, uses: string[], body: (previous: Answer | null) => object, path?: undefined }
 *   | { name: string, app: 'calendar', path: string, uses: string[], operation?: undefined, body?: undefined }} PlanRequest
 */

/**
 * A user (dashed id, username), the last page of get_users, a day and the day six days later,
 * and the same inside the year of the recurring series.
 * @typedef {object} PlanSample
 * @property {{ id: string, username: string }} user
 * @property {number} lastPage
 * @property {string} day
 * @property {string} weekEnd
 * @property {string} seriesDay
 * @property {string} seriesWeekEnd
 */

/**
 * @param {string} name
 * @param {string} operation
 * @param {string[]} uses
 * @param {(previous: Answer | null) => object} body
 * @returns {PlanRequest}
 */
const operation = (name, operation, uses, body) => ({
  name,
  app: 'workspace',
  operation,
  uses,
  body,
});
/**
 * @param {string} name
 * @param {string[]} uses
 * @param {object} extra
 */
const usersPage = (name, uses, extra) =>
  operation(name, 'get_users', uses, () => ({ page_size: 100, ...extra }));

/**
 * The requests for the `sample`. A `body(previous)` gets the previous request's answer (for
 * get_users' `next_cursor`).
 * @param {PlanSample} sample
 * @returns {PlanRequest[]}
 */
export function planRequests({ user, lastPage, day, weekEnd, seriesDay, seriesWeekEnd }) {
  return [
    operation('get_user by id', 'get_user', ['user_pkey'], () => ({
      target_user: { user_id: user.id },
    })),
    operation('get_user by username', 'get_user', ['user_username_key'], () => ({
      target_user: { username: user.username },
    })),
    operation('update_user', 'update_user', ['user_pkey'], () => ({
      target_user: { user_id: user.id, first_name: 'Plan' },
    })),
    usersPage('get_users page 0', ['user_created_at_id_idx'], { page: 0 }),
    operation('get_users after a cursor', 'get_users', ['user_created_at_id_idx'], (previous) => ({
      page_size: 100,
      cursor: previous?.next_cursor,
    })),
    usersPage(`get_users page ${lastPage}`, ['user_created_at_id_idx'], { page: lastPage }),
    usersPage('get_users by username', ['user_username_key'], {
      page: lastPage,
      sort_by: 'username',
    }),
    usersPage('get_users by organization', ['user_organization_id_idx'], {
      page: 3,
      sort_by: 'organization',
    }),
    {
      name: 'GET /events/{date}',
      app: 'calendar',
      path: `/api/calendar/events/${day}`,
      uses: ['calendar_event_date_id_idx', 'calendar_event_series_end_date_idx'],
    },
    {
      name: 'GET /events/range',
      app: 'calendar',
      path: `/api/calendar/events/range?start=${day}&end=${weekEnd}`,
      uses: ['calendar_event_date_id_idx', 'calendar_event_series_end_date_idx'],
    },
    {
      name: 'GET /events/range, recurring series',
      app: 'calendar',
      path: `/api/calendar/events/range?start=${seriesDay}&end=${seriesWeekEnd}`,
      uses: ['calendar_event_date_id_idx', 'calendar_event_series_end_date_idx'],
    },
  ];
}
