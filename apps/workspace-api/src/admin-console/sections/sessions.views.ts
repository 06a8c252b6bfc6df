import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import type { AdminPerson } from '../admin-context';
import { may } from '../admin-context';
import { actionForm, adminPage, dataTable } from '../admin-layout';
import type { KasmWithOwners } from '../../sessions';

/** "3 min", "2 h 5 min": how long ago (or until) `date`, from `now`. */
export function span(date: Date, now = Date.now()): string {
  const minutes = Math.round(Math.abs(date.getTime() - now) / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** The rows of live sessions with the actions the person may take on each. */
export type Viewers = Map<string, { role: string; username: string }[]>;

const viewerLine = (viewer: { role: string; username: string }) =>
  `${viewer.username} (${viewer.role === 'watch' ? 'watching' : viewer.role})`;

export function sessionsTable(
  person: AdminPerson,
  rows: KasmWithOwners[],
  back: string,
  viewers: Viewers = new Map(),
): Html {
  if (rows.length === 0) return html`<p>No live sessions.</p>`;
  const now = Date.now();
  return html`${dataTable(
    'Live sessions',
    ['User', 'Workspace', 'Agent', 'Status', 'Age', 'Expires in', 'Viewers', 'Actions'],
    rows.map((row) => {
      const id = toWireId(row.id);
      const fields = { back };
      return html`<tr>
        <td>
          ${
            row.userId && row.user
              ? html`<a href="/admin/users/${toWireId(row.userId)}">${row.user.username}</a>`
              : 'staged, waiting for a user'
          }
        </td>
        <td>${row.image.friendlyName}</td>
        <td>${row.agent.hostname}</td>
        <td>${row.status}</td>
        <td>${span(row.createdAt, now)}</td>
        <td>${row.expiresAt.getTime() > now ? span(row.expiresAt, now) : 'expired'}</td>
        <td>${(viewers.get(row.id) ?? []).map(viewerLine).join(', ') || 'nobody'}</td>
        <td>
          <div class="actions">
            ${
              may(person, 'sessions.watch') && row.status === 'running' && row.userId
                ? actionForm(person, `/admin/sessions/${id}/watch`, 'Watch', {
                    style: 'secondary',
                  })
                : null
            }
            ${
              may(person, 'sessions.modify') && row.status === 'running'
                ? actionForm(person, `/admin/sessions/${id}/keepalive`, 'Keep alive', {
                    fields,
                    style: 'secondary',
                  })
                : null
            }
            ${
              may(person, 'sessions.delete')
                ? actionForm(person, `/admin/sessions/${id}/destroy`, 'Destroy', {
                    fields,
                    style: 'danger',
                    confirm: `Destroy ${row.user.username}'s ${row.image.friendlyName} session?`,
                  })
                : null
            }
          </div>
        </td>
      </tr>`;
    }),
  )}`;
}

export function sessionsPage(
  person: AdminPerson,
  rows: KasmWithOwners[],
  viewers: Viewers,
  notice?: string,
): Html {
  return adminPage(person, {
    title: 'Sessions',
    section: 'sessions',
    notice,
    body: html`<p class="muted">${rows.length} live session${rows.length === 1 ? '' : 's'}.</p>
      ${sessionsTable(person, rows, '/admin/sessions', viewers)}`,
  });
}
