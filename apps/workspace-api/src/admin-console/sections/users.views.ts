import { html, type Html } from '@platform/http';
import { PASSWORD_RULES } from '@platform/password-rules';
import { toWireId } from '@platform/schemas';
import { ALL_USERS_GROUP_ID } from '../../domain';
import type { GroupRow } from '../../groups';
import type { KasmWithOwners } from '../../sessions';
import type { UserRow, UsersPage } from '../../users';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { actionForm, adminPage, checkbox, field, dataTable } from '../admin-layout';
import { sessionsTable } from './sessions.views';

export const USERS_PAGE_SIZE = 50;

/** The fields of create_user and update_user besides username and password. */
function profileFields(user: Partial<UserRow> = {}): Html {
  return html`<div class="form-grid">
      ${field('first_name', 'First name', user.firstName, { maxlength: 64 })}
      ${field('last_name', 'Last name', user.lastName, { maxlength: 64 })}
      ${field('phone', 'Phone', user.phone, { maxlength: 64 })}
      ${field('organization', 'Organization', user.organization, { maxlength: 64 })}
    </div>
    <div class="field">
      <label for="f-notes">Notes</label>
      <textarea id="f-notes" name="notes" rows="3" maxlength="2000">${user.notes ?? ''}</textarea>
    </div>
    <div class="form-grid">
      ${checkbox('locked', 'Locked (too many failed sign-ins)', user.locked ?? false)}
      ${checkbox('disabled', 'Disabled (may not sign in)', user.disabled ?? false)}
    </div>`;
}

/** A password field with the rules beside it, marked as the administrator types (admin.js). */
function passwordField(required: boolean): Html {
  return html`<div class="field">
    <label for="f-password">Password${required ? '' : ' (optional)'}</label>
    <input
      id="f-password"
      name="password"
      type="password"
      autocomplete="new-password"
      maxlength="1024"
      aria-describedby="password-rules"
      data-password-rules="password-rules"
      ${required ? html`required` : null}
    />
    <ul class="rules" id="password-rules" aria-live="polite">
      ${PASSWORD_RULES.map((r) => html`<li data-rule="${r.id}">${r.message}</li>`)}
    </ul>
  </div>`;
}

function createForm(person: AdminPerson): Html {
  return html`<details>
    <summary>Create a user</summary>
    <form method="post" action="/admin/users/create" class="stack">
      ${csrfInput(person.csrf)}
      ${field('username', 'Username', '', { required: true, maxlength: 255 })}
      ${passwordField(false)} ${profileFields()}
      <button type="submit">Create user</button>
    </form>
  </details>`;
}

export function usersPage(
  person: AdminPerson,
  o: { query: string; result: UsersPage; notice?: string },
): Html {
  const { users, total, nextCursor } = o.result;
  const search = o.query ? `&q=${encodeURIComponent(o.query)}` : '';
  return adminPage(person, {
    title: 'Users',
    section: 'users',
    notice: o.notice,
    body: html`<form method="get" action="/admin/users" class="search" role="search">
        <label for="q">Search usernames</label>
        <input id="q" name="q" type="search" value="${o.query}" maxlength="255" />
        <button type="submit" class="secondary">Search</button>
      </form>
      <p class="muted" id="users-count">
        ${total} user${total === 1 ? '' : 's'}${o.query ? ' match' : ''}.
      </p>
      ${dataTable(
        'Users',
        ['Username', 'Name', 'Organization', 'State'],
        users.map(
          (u) =>
            html`<tr>
              <td><a href="/admin/users/${toWireId(u.id)}">${u.username}</a></td>
              <td>${u.firstName} ${u.lastName}</td>
              <td>${u.organization}</td>
              <td>
                ${[u.locked && 'locked', u.disabled && 'disabled'].filter(Boolean).join(', ') || 'active'}
              </td>
            </tr>`,
        ),
      )}
      <nav class="pager" aria-label="Pages of users">
        <a href="/admin/users?${search.slice(1)}">First page</a>
        ${
          nextCursor
            ? html`<a
                href="/admin/users?cursor=${encodeURIComponent(nextCursor)}${search}"
                rel="next"
                >Next ${USERS_PAGE_SIZE}</a
              >`
            : null
        }
      </nav>
      ${may(person, 'users.create') ? createForm(person) : null}`,
  });
}

function groupsPart(person: AdminPerson, user: UserRow, allGroups: GroupRow[]): Html {
  const id = toWireId(user.id);
  const joinable = allGroups.filter((g) => !user.groups.some((m) => m.id === g.id));
  const modify = may(person, 'groups.modify');
  return html`<h2>Groups</h2>
    <ul>
      ${user.groups.map(
        (g) =>
          html`<li>
            ${g.name}
            ${
              modify && g.id !== ALL_USERS_GROUP_ID
                ? actionForm(
                    person,
                    `/admin/users/${id}/groups/leave`,
                    html`Remove<span class="visually-hidden"> from ${g.name}</span>`,
                    {
                      fields: { group_id: toWireId(g.id) },
                      style: 'secondary',
                    },
                  )
                : null
            }
          </li>`,
      )}
    </ul>
    ${
      modify && joinable.length > 0
        ? html`<form method="post" action="/admin/users/${id}/groups/join" class="search">
            ${csrfInput(person.csrf)}
            <label for="join-group">Add to group</label>
            <select id="join-group" name="group_id">
              ${joinable.map((g) => html`<option value="${toWireId(g.id)}">${g.name}</option>`)}
            </select>
            <button type="submit">Add</button>
          </form>`
        : null
    }`;
}

export function userPage(
  person: AdminPerson,
  o: { user: UserRow; allGroups: GroupRow[]; live: KasmWithOwners[] | null; notice?: string },
): Html {
  const { user } = o;
  const id = toWireId(user.id);
  const modify = may(person, 'users.modify');
  return adminPage(person, {
    title: `User ${user.username}`,
    section: 'users',
    notice: o.notice,
    body: html`<p class="muted">
        Created ${user.createdAt.toISOString().slice(0, 10)}; last sign-in
        ${user.lastSession ? user.lastSession.toISOString().slice(0, 16).replace('T', ' ') : 'never'}.
      </p>
      ${
        modify
          ? html`<h2>Details</h2>
              <form method="post" action="/admin/users/${id}/update" class="stack">
                ${csrfInput(person.csrf)}
                ${field('username', 'Username', user.username, { required: true, maxlength: 255 })}
                ${profileFields(user)}
                <button type="submit">Save</button>
              </form>
              <h2>Password</h2>
              <form method="post" action="/admin/users/${id}/password" class="stack">
                ${csrfInput(person.csrf)} ${passwordField(true)}
                <button type="submit">Set password</button>
              </form>`
          : html`<p>${user.firstName} ${user.lastName} · ${user.organization}</p>`
      }
      ${may(person, 'groups.view') ? groupsPart(person, user, o.allGroups) : null}
      ${
        o.live
          ? html`<h2>Live sessions</h2>
              ${sessionsTable(person, o.live, `/admin/users/${id}`)}`
          : null
      }
      ${
        may(person, 'users.auth_session')
          ? html`<h2>Sign-in link</h2>
              <p>A one-time link that signs ${user.username} in to the web page.</p>
              ${actionForm(person, `/admin/users/${id}/login-link`, 'Make a sign-in link', { style: 'secondary' })}`
          : null
      }`,
  });
}

export function loginLinkPage(person: AdminPerson, user: UserRow, url: string): Html {
  return adminPage(person, {
    title: `Sign-in link for ${user.username}`,
    section: 'users',
    body: html`<p>It works once, and only for a short time. It is shown only now.</p>
      <p class="secret" id="login-link">${url}</p>
      <p><a href="/admin/users/${toWireId(user.id)}">Back to ${user.username}</a></p>`,
  });
}
