import { html, type Html } from '@platform/http';
import {
  AUDIT_CHANNELS,
  AUDIT_RESULTS,
  type AuditEventResponse,
  type GetAuditLogBody,
} from '../../audit';
import type { AdminPerson } from '../admin-context';
import { adminPage, dataTable, field } from '../admin-layout';

type Filters = Omit<GetAuditLogBody, 'page'>;
interface AuditPageData {
  events: AuditEventResponse[];
  total: number;
  next_cursor: string | null;
}

const TEXT_FILTERS = [
  ['operation', 'Operation', 'e.g. update_user'],
  ['actor_id', 'Actor id', 'an api_key_id or user_id'],
  ['target_type', 'Target type', 'user, group, image, agent, zone…'],
  ['target_id', 'Target id', ''],
  ['since', 'Since', 'ISO 8601, e.g. 2026-11-26T00:00:00Z'],
  ['until', 'Until', 'ISO 8601, exclusive'],
] as const;

function choice(name: string, label: string, values: readonly string[], chosen?: string): Html {
  return html`<div class="field">
    <label for="f-${name}">${label}</label>
    <select id="f-${name}" name="${name}">
      <option value="">any</option>
      ${values.map(
        (v) => html`<option value="${v}" ${v === chosen ? html`selected` : null}>${v}</option>`,
      )}
    </select>
  </div>`;
}

function filterForm(filters: Filters): Html {
  return html`<form method="get" action="/admin/audit" role="search">
    <div class="form-grid">
      ${TEXT_FILTERS.map(([name, label, hint]) =>
        field(name, label, filters[name], { maxlength: 255, hint: hint || undefined }),
      )}
      ${choice('channel', 'Channel', AUDIT_CHANNELS, filters.channel)}
      ${choice('result', 'Result', AUDIT_RESULTS, filters.result)}
    </div>
    <button type="submit">Filter</button>
  </form>`;
}

const snapshot = (label: string, value: unknown) =>
  value === null
    ? null
    : html`<p>${label}</p>
        <pre>${JSON.stringify(value, null, 2)}</pre>`;

function eventRow(event: AuditEventResponse): Html {
  const who = event.actor.name ?? event.actor.id ?? event.actor.kind;
  const target = event.target ? `${event.target.type} ${event.target.id ?? ''}` : '—';
  const details =
    event.before === null && event.after === null
      ? null
      : html`<details>
          <summary>Before and after</summary>
          ${snapshot('Before', event.before)} ${snapshot('After', event.after)}
        </details>`;
  return html`<tr>
    <td>
      <time datetime="${event.created ?? ''}">${(event.created ?? '').replace('T', ' ')}</time>
    </td>
    <td>${who} <small class="muted">(${event.actor.kind})</small></td>
    <td>${event.channel}</td>
    <td>${event.operation}</td>
    <td>${target}</td>
    <td>${event.result}${event.error_code ? html` <small>${event.error_code}</small>` : null}</td>
    <td>${event.client_ip ?? ''}</td>
    <td>${details}</td>
  </tr>`;
}

/** The next page's address: the same filters, from the cursor on. */
function nextPage(filters: Filters, cursor: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (value !== undefined && name !== 'cursor') query.set(name, String(value));
  query.set('cursor', cursor);
  return `/admin/audit?${query}`;
}

export function auditPage(person: AdminPerson, filters: Filters, page: AuditPageData): Html {
  return adminPage(person, {
    title: 'Audit',
    section: 'audit',
    body: html`${filterForm(filters)}
      <p role="status">${page.total} ${page.total === 1 ? 'event matches' : 'events match'}.</p>
      ${
        page.events.length === 0
          ? null
          : dataTable(
              'Audit events, newest first',
              ['When (UTC)', 'Who', 'Channel', 'Operation', 'Target', 'Result', 'From', 'Details'],
              page.events.map(eventRow),
            )
      }
      ${
        page.next_cursor
          ? html`<nav class="pager" aria-label="Pages of events">
              <a href="${nextPage(filters, page.next_cursor)}">Older events</a>
            </nav>`
          : null
      }`,
  });
}
