import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import { ALL_USERS_GROUP_ID } from '../../domain';
import { GROUP_POLICY_SWITCHES, type GroupRow } from '../../groups';
import type { ImageRow } from '../../images';
import type { UserRow } from '../../users';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { actionForm, adminPage, field, dataTable } from '../admin-layout';
import { permissionPicker } from './permission-picker';
import { policyFieldset, policySummary } from './policy-fields';

export const MEMBERS_PAGE_SIZE = 50;

function groupFields(person: AdminPerson, group?: GroupRow): Html {
  return html`<div class="form-grid">
      ${field('name', 'Name', group?.name, { required: true, maxlength: 255 })}
      ${field('priority', 'Priority', group?.priority ?? 100, {
        type: 'number',
        attrs: html`min="1" max="4095"`,
        hint: 'Lower wins when group settings clash',
      })}
      ${field('max_kasms_per_user', 'Session limit', group?.maxKasmsPerUser, {
        type: 'number',
        attrs: html`min="0" max="10000"`,
        hint: 'Live sessions a member may hold; blank leaves it unset (none set anywhere: 2)',
      })}
    </div>
    <div class="field">
      <label for="f-description">Description</label>
      <textarea id="f-description" name="description" rows="2" maxlength="2000">
${group?.description ?? ''}</textarea>
    </div>
    ${permissionPicker(person, group?.permissions ?? [], 'Permissions its members hold')}
    ${policyFieldset(
      'Files and clipboard its members may use',
      'Unticked refuses it to members whatever their workspace allows; ticked leaves it to the workspace and their other groups.',
      group,
      GROUP_POLICY_SWITCHES,
    )}`;
}

export function groupsPage(person: AdminPerson, groups: GroupRow[], notice?: string): Html {
  return adminPage(person, {
    title: 'Groups',
    section: 'groups',
    notice,
    body: html`${dataTable(
      'Groups',
      ['Name', 'Priority', 'Session limit', 'Permissions'],
      groups.map(
        (g) =>
          html`<tr>
            <td>
              <a href="/admin/groups/${toWireId(g.id)}">${g.name}</a
              >${g.isSystem ? ' (system)' : ''}
            </td>
            <td>${g.priority}</td>
            <td>${g.maxKasmsPerUser ?? '—'}</td>
            <td>${g.permissions.join(', ') || '—'}</td>
          </tr>`,
      ),
    )}
    ${
      may(person, 'groups.create')
        ? html`<details>
            <summary>Create a group</summary>
            <form method="post" action="/admin/groups/create" class="stack">
              ${csrfInput(person.csrf)} ${groupFields(person)}
              <button type="submit">Create group</button>
            </form>
          </details>`
        : null
    }`,
  });
}

function membersPart(
  person: AdminPerson,
  group: GroupRow,
  members: { users: UserRow[]; total: number },
  page: number,
): Html {
  const id = toWireId(group.id);
  const modify = may(person, 'groups.modify');
  const pages = Math.max(1, Math.ceil(members.total / MEMBERS_PAGE_SIZE));
  return html`<h2>Members (${members.total})</h2>
    <ul>
      ${members.users.map(
        (u) =>
          html`<li>
            <a href="/admin/users/${toWireId(u.id)}">${u.username}</a>
            ${
              modify && group.id !== ALL_USERS_GROUP_ID
                ? actionForm(
                    person,
                    `/admin/groups/${id}/members/remove`,
                    html`Remove<span class="visually-hidden"> ${u.username}</span>`,
                    {
                      fields: { user_id: toWireId(u.id) },
                      style: 'secondary',
                    },
                  )
                : null
            }
          </li>`,
      )}
    </ul>
    ${
      pages > 1
        ? html`<nav class="pager" aria-label="Pages of members">
            ${page > 0 ? html`<a href="/admin/groups/${id}?page=${page - 1}" rel="prev">Previous</a>` : null}
            <span>Page ${page + 1} of ${pages}</span>
            ${page + 1 < pages ? html`<a href="/admin/groups/${id}?page=${page + 1}" rel="next">Next</a>` : null}
          </nav>`
        : null
    }
    ${
      modify
        ? html`<form method="post" action="/admin/groups/${id}/members/add" class="search">
            ${csrfInput(person.csrf)}
            <label for="member-username">Add member by username</label>
            <input id="member-username" name="username" required maxlength="255" />
            <button type="submit">Add member</button>
          </form>`
        : null
    }`;
}

function workspacesPart(
  person: AdminPerson,
  group: GroupRow,
  allowed: ImageRow[],
  all: ImageRow[],
): Html {
  const id = toWireId(group.id);
  const modify = may(person, 'groups.modify');
  const addable = all.filter((i) => !allowed.some((a) => a.id === i.id));
  return html`<h2>Allowed Workspaces</h2>
    ${allowed.length === 0 ? html`<p>None: members of this group may launch no workspace through it.</p>` : null}
    <ul>
      ${allowed.map(
        (i) =>
          html`<li>
            ${i.friendlyName} <span class="muted">${i.name}</span>
            ${
              modify
                ? actionForm(
                    person,
                    `/admin/groups/${id}/workspaces/remove`,
                    html`Remove<span class="visually-hidden"> ${i.friendlyName}</span>`,
                    {
                      fields: { image_id: toWireId(i.id) },
                      style: 'secondary',
                    },
                  )
                : null
            }
          </li>`,
      )}
    </ul>
    ${
      modify && addable.length > 0
        ? html`<form method="post" action="/admin/groups/${id}/workspaces/add" class="search">
            ${csrfInput(person.csrf)}
            <label for="add-workspace">Allow workspace</label>
            <select id="add-workspace" name="image_id">
              ${addable.map((i) => html`<option value="${toWireId(i.id)}">${i.friendlyName} (${i.name})</option>`)}
            </select>
            <button type="submit">Allow</button>
          </form>`
        : null
    }`;
}

export function groupPage(
  person: AdminPerson,
  o: {
    group: GroupRow;
    members: { users: UserRow[]; total: number };
    page: number;
    allowed: ImageRow[] | null;
    all: ImageRow[];
    notice?: string;
  },
): Html {
  const { group } = o;
  const id = toWireId(group.id);
  return adminPage(person, {
    title: `Group ${group.name}`,
    section: 'groups',
    notice: o.notice,
    body: html`${
      may(person, 'groups.modify')
        ? html`<form method="post" action="/admin/groups/${id}/update" class="stack">
            ${csrfInput(person.csrf)} ${groupFields(person, group)}
            <button type="submit">Save</button>
          </form>`
        : html`<p>${group.description}</p>
            <p>
              Priority ${group.priority}; permissions: ${group.permissions.join(', ') || 'none'}.
            </p>
            <p>${policySummary(group, GROUP_POLICY_SWITCHES)}.</p>`
    }
    ${membersPart(person, group, o.members, o.page)}
    ${o.allowed ? workspacesPart(person, group, o.allowed, o.all) : null}
    ${
      may(person, 'groups.delete') && !group.isSystem
        ? html`<h2>Delete</h2>
            ${actionForm(person, `/admin/groups/${id}/delete`, 'Delete group', {
              style: 'danger',
              confirm: `Delete the group ${group.name}? Its members stay; they lose what it grants.`,
            })}`
        : null
    }`,
  });
}
