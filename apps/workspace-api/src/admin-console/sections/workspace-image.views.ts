import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import {
  CORES_MAX,
  CORES_MIN,
  type ImageRow,
  WORKSPACE_POLICY_LIMITS,
  WORKSPACE_POLICY_SWITCHES,
} from '../../images';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { actionForm, adminPage, checkbox, field } from '../admin-layout';
import { policyFieldset, policySummary } from './policy-fields';
import { mb, yesNo } from './workspaces.views';
import type { WorkspacesSectionDeps } from './workspaces-deps';

type MappingRow = Awaited<ReturnType<WorkspacesSectionDeps['fileMappings']['list']>>[number];

const PLACEHOLDERS = html`<ul class="placeholders" id="profile-placeholders">
  <li><code>{username}</code> the user's name</li>
  <li><code>{user_id}</code> the user's id</li>
  <li><code>{image_id}</code> this workspace's id</li>
</ul>`;

function imageForm(person: AdminPerson, image: ImageRow): Html {
  const id = toWireId(image.id);
  return html`<form method="post" action="/admin/workspaces/images/${id}">
    ${csrfInput(person.csrf)}
    <div class="form-grid">
      ${field('friendly_name', 'Name', image.friendlyName, { required: true, maxlength: 255 })}
      ${field('cores', 'Cores', image.cores, {
        type: 'number',
        required: true,
        hint: `${CORES_MIN} to ${CORES_MAX}; fractions allowed`,
        attrs: html`step="0.01" min="${CORES_MIN}" max="${CORES_MAX}"`,
      })}
      ${field('memory_mb', 'Memory (MB)', mb(image.memory), {
        type: 'number',
        required: true,
        hint: '1 MB = 1,000,000 bytes',
        attrs: html`min="1" step="1"`,
      })}
    </div>
    <div class="field">
      <label for="f-persistent_profile_path">Persistent profile path</label>
      <input
        id="f-persistent_profile_path"
        name="persistent_profile_path"
        value="${image.persistentProfilePath}"
        maxlength="1024"
        class="mono"
        data-profile-check="profile-problems"
        aria-describedby="profile-help profile-placeholders profile-problems"
      />
      <small id="profile-help" class="muted"
        >Empty for no persistent profile; else an absolute path or an s3:// URL containing
        {username} or {user_id}, so that every user gets a profile of their own.
        Placeholders:</small
      >
      ${PLACEHOLDERS}
      <ul id="profile-problems" class="rules" aria-live="polite"></ul>
    </div>
    ${policyFieldset(
      'Files and clipboard in its sessions',
      "Unticked refuses it to everyone; a user's groups may refuse more, never allow more.",
      image,
      WORKSPACE_POLICY_SWITCHES,
      WORKSPACE_POLICY_LIMITS,
    )}
    ${checkbox('enabled', 'Enabled (users may launch it)', image.enabled)}
    <p><button type="submit">Save</button></p>
  </form>`;
}

function mappingFields(prefix: string, m: Partial<MappingRow>): Html {
  const f = (name: string) => `${prefix}-${name}`;
  return html`<div class="form-grid">
      ${field('name', 'Name', m.name, { id: f('name'), required: true, maxlength: 255 })}
      ${field('destination', 'Destination', m.destination, {
        id: f('destination'),
        required: true,
        maxlength: 1024,
        attrs: html`class="mono" placeholder="/home/kasm-user/Desktop/README.txt"`,
      })}
      ${field('description', 'Description', m.description, { id: f('description'), maxlength: 2000 })}
    </div>
    <div class="check">
      <input
        id="${f('executable')}"
        name="executable"
        type="checkbox"
        ${m.executable ? html`checked` : null}
      />
      <label for="${f('executable')}">Executable (a script)</label>
    </div>
    <div class="field">
      <label for="${f('content')}">Content</label>
      <textarea id="${f('content')}" name="content" rows="10" class="code" spellcheck="false">
${m.content ?? ''}</textarea>
    </div>`;
}

function mappingsPart(person: AdminPerson, image: ImageRow, mappings: MappingRow[]): Html {
  const id = toWireId(image.id);
  const modify = may(person, 'settings.modify');
  const form = (action: string, prefix: string, m: Partial<MappingRow>, label: string) =>
    html`<form method="post" action="${action}" enctype="multipart/form-data">
      ${csrfInput(person.csrf)} ${mappingFields(prefix, m)}
      <p><button type="submit">${label}</button></p>
    </form>`;
  return html`<h2>File mappings</h2>
    <p class="muted">Files written into every session of this workspace before it starts.</p>
    ${mappings.length === 0 ? html`<p>None.</p>` : null}
    ${mappings.map((m) => {
      const mid = toWireId(m.id);
      return html`<details class="mapping">
        <summary>
          ${m.name} →
          <span class="mono">${m.destination}</span>${m.executable ? ' (executable)' : ''}
        </summary>
        ${
          modify
            ? html`${form(`/admin/workspaces/images/${id}/mappings/${mid}`, `m-${mid}`, m, 'Save file mapping')}
              ${actionForm(
                person,
                `/admin/workspaces/images/${id}/mappings/${mid}/delete`,
                'Delete file mapping',
                {
                  style: 'danger',
                  confirm: `Delete the file mapping ${m.name}?`,
                },
              )}`
            : html`<p>${m.description}</p>
                <pre class="code">${m.content}</pre>`
        }
      </details>`;
    })}
    ${
      modify
        ? html`<details class="mapping" ${mappings.length === 0 ? html`open` : null}>
            <summary>Add a file mapping</summary>
            ${form(`/admin/workspaces/images/${id}/mappings/create`, 'new', {}, 'Add file mapping')}
          </details>`
        : null
    }`;
}

export function imagePage(
  person: AdminPerson,
  image: ImageRow,
  mappings: MappingRow[] | null,
  notice?: string,
): Html {
  return adminPage(person, {
    title: image.friendlyName,
    section: 'workspaces',
    notice,
    body: html`<p><a href="/admin/workspaces">Back to Workspaces</a></p>
      <p class="muted">
        <span class="mono">${image.name}</span> · settings name
        <span class="mono">${image.settingsName}</span>
      </p>
      ${
        may(person, 'images.modify')
          ? imageForm(person, image)
          : html`<p>
                Cores ${image.cores}, memory ${mb(image.memory)} MB, enabled
                ${yesNo(image.enabled)}, profile path
                <span class="mono">${image.persistentProfilePath || '—'}</span>.
              </p>
              <p>${policySummary(image, WORKSPACE_POLICY_SWITCHES, WORKSPACE_POLICY_LIMITS)}.</p>`
      }
      ${mappings ? mappingsPart(person, image, mappings) : null}`,
  });
}
