import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import type { ApiKeyRow, IssuedApiKey } from '../../api-keys';
import { csrfInput } from '../../web';
import type { AdminPerson } from '../admin-context';
import { actionForm, adminPage, checkbox, field, dataTable } from '../admin-layout';
import { permissionPicker } from './permission-picker';

function stateOf(key: ApiKeyRow, now: number): string {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

export function apiKeysPage(person: AdminPerson, keys: ApiKeyRow[], notice?: string): Html {
  const now = Date.now();
  return adminPage(person, {
    title: 'API keys',
    section: 'api-keys',
    notice,
    body: html`${dataTable(
        'API keys',
        ['Name', 'Key', 'Permissions', 'Expires', 'State', 'Actions'],
        keys.map((key) => {
          const state = stateOf(key, now);
          return html`<tr>
            <td>${key.name}</td>
            <td><code>${key.key}</code></td>
            <td>${key.permissions.join(', ')}${key.readOnly ? ' (read-only)' : ''}</td>
            <td>
              ${key.expiresAt ? key.expiresAt.toISOString().slice(0, 16).replace('T', ' ') : 'never'}
            </td>
            <td>${state}</td>
            <td>
              ${
                state === 'revoked'
                  ? null
                  : actionForm(
                      person,
                      `/admin/api-keys/${toWireId(key.id)}/revoke`,
                      html`Revoke<span class="visually-hidden"> ${key.name}</span>`,
                      { style: 'danger', confirm: `Revoke the API key ${key.name}?` },
                    )
              }
            </td>
          </tr>`;
        }),
      )}
      <h2>Create an API key</h2>
      <form method="post" action="/admin/api-keys/create" class="stack">
        ${csrfInput(person.csrf)}
        <div class="form-grid">
          ${field('name', 'Name', '', { required: true, maxlength: 255 })}
          ${field('expires', 'Expires (optional)', '', {
            type: 'datetime-local',
            hint: 'Blank: never',
          })}
        </div>
        ${checkbox('read_only', 'Read-only (view operations only)', false)}
        ${permissionPicker(person, [], 'Permissions (only those your groups grant)')}
        <button type="submit">Create API key</button>
      </form>`,
  });
}

export function issuedKeyPage(person: AdminPerson, { apiKey, secret }: IssuedApiKey): Html {
  return adminPage(person, {
    title: `API key ${apiKey.name}`,
    section: 'api-keys',
    body: html`<p role="status">The secret is shown only now; store it safely.</p>
      <dl>
        <dt>api_key</dt>
        <dd><code id="issued-key">${apiKey.key}</code></dd>
        <dt>api_key_secret</dt>
        <dd class="secret" id="issued-secret">${secret}</dd>
        <dt>Permissions</dt>
        <dd>${apiKey.permissions.join(', ')}${apiKey.readOnly ? ' (read-only)' : ''}</dd>
      </dl>
      <p><a href="/admin/api-keys">Back to API keys</a></p>`,
  });
}
