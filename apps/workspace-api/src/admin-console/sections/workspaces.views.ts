import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import { BYTES_PER_MB, CORES_MAX, CORES_MIN, type ImageRow } from '../../images';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { actionForm, adminPage, checkbox, field } from '../admin-layout';
import type { WorkspacesSectionDeps } from './workspaces.routes';

type RegistryRow = Awaited<ReturnType<WorkspacesSectionDeps['registries']['list']>>[number];
type Listed = Awaited<ReturnType<WorkspacesSectionDeps['registryWorkspaces']['list']>>;
type MappingRow = Awaited<ReturnType<WorkspacesSectionDeps['fileMappings']['list']>>[number];

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const mb = (bytes: bigint | number) => Math.round(Number(bytes) / BYTES_PER_MB);

function registriesPart(person: AdminPerson, rows: RegistryRow[]): Html {
  const modify = may(person, 'registries.modify');
  return html`<h2>Registries</h2>
    ${
      rows.length === 0
        ? html`<p>No registry yet.</p>`
        : html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">
                Registries
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Address</th>
                  <th scope="col">Workspaces</th>
                  <th scope="col">Fetched</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map((r) => {
                  const id = toWireId(r.id);
                  const invalid = (r.invalidEntries as unknown[]).length;
                  return html`<tr>
                    <td><a href="/admin/workspaces/registries/${id}">${r.name}</a></td>
                    <td class="mono">${r.url}</td>
                    <td>
                      ${r._count.entries}${invalid ? html` (${invalid} invalid, skipped)` : null}
                    </td>
                    <td>${r.fetchedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</td>
                    <td class="actions">
                      ${
                        modify
                          ? actionForm(
                              person,
                              `/admin/workspaces/registries/${id}/refresh`,
                              html`Refresh<span class="visually-hidden"> ${r.name}</span>`,
                              { style: 'secondary' },
                            )
                          : null
                      }
                    </td>
                  </tr>`;
                })}
              </tbody>
            </table>
          </div>`
    }
    ${
      modify
        ? html`<form method="post" action="/admin/workspaces/registries/add" class="search">
            ${csrfInput(person.csrf)}
            <label for="registry-url">Add a registry (its address)</label>
            <input
              id="registry-url"
              name="registry_url"
              type="url"
              required
              maxlength="2048"
              placeholder="https://registry.example.com/kasm/"
            />
            <button type="submit">Add registry</button>
          </form>`
        : null
    }`;
}

function installedPart(images: ImageRow[]): Html {
  return html`<h2>Installed workspaces</h2>
    ${
      images.length === 0
        ? html`<p>None installed: install one from a registry.</p>`
        : html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">
                Installed workspaces
              </caption>
              <thead>
                <tr>
                  <th scope="col">Workspace</th>
                  <th scope="col">Image</th>
                  <th scope="col">Enabled</th>
                  <th scope="col">Cores</th>
                  <th scope="col">Memory (MB)</th>
                  <th scope="col">Profile path</th>
                </tr>
              </thead>
              <tbody>
                ${images.map(
                  (i) =>
                    html`<tr>
                      <td>
                        <a href="/admin/workspaces/images/${toWireId(i.id)}">${i.friendlyName}</a>
                      </td>
                      <td class="mono">${i.name}</td>
                      <td>${yesNo(i.enabled)}</td>
                      <td>${i.cores}</td>
                      <td>${mb(i.memory)}</td>
                      <td class="mono">${i.persistentProfilePath || '—'}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}

export function workspacesPage(
  person: AdminPerson,
  registries: RegistryRow[],
  images: ImageRow[],
  notice?: string,
): Html {
  return adminPage(person, {
    title: 'Workspaces',
    section: 'workspaces',
    notice,
    body: html`${registriesPart(person, registries)} ${installedPart(images)}`,
  });
}

export interface RegistryView extends Listed {
  registry: RegistryRow;
  series: string;
  /** Whether incompatible entries are shown too. */
  all: boolean;
  /** The workspaces installed from this registry. */
  copies: ImageRow[];
}

/** Where an entry is installed, and the image it runs when the registry now names another. */
function installedCopy(view: RegistryView, entry: Listed['workspaces'][number]): Html {
  const copy = view.copies.find((c) => c.registryEntryName === entry.name);
  if (!copy) return html`<p><strong>Installed</strong></p>`;
  return html`<p>
    <strong>Installed</strong> as
    <a href="/admin/workspaces/images/${toWireId(copy.id)}">${copy.friendlyName}</a>${
      copy.name === entry.image
        ? null
        : html` (it runs <span class="mono">${copy.name}</span>; the registry now names
            <span class="mono">${entry.image}</span>)`
    }
  </p>`;
}

export function registryPage(person: AdminPerson, view: RegistryView, notice?: string): Html {
  const id = toWireId(view.registry.id);
  const install = may(person, 'images.modify');
  const entries = view.workspaces;
  return adminPage(person, {
    title: view.registry.name,
    section: 'workspaces',
    notice,
    body: html`<p><a href="/admin/workspaces">Back to Workspaces</a></p>
      <p class="muted">
        <span class="mono">${view.registry.url}</span> · this platform is ${view.series} ·
        ${
          view.all
            ? html`<a href="/admin/workspaces/registries/${id}">Show only compatible workspaces</a>`
            : html`${view.hiddenIncompatible} incompatible hidden ·
                <a href="/admin/workspaces/registries/${id}?all=1">Show all</a>`
        }
      </p>
      ${
        may(person, 'registries.modify')
          ? actionForm(person, `/admin/workspaces/registries/${id}/refresh`, 'Refresh registry', {
              style: 'secondary',
            })
          : null
      }
      ${entries.length === 0 ? html`<p>No workspaces to show.</p>` : null}
      <ul class="entries">
        ${entries.map(
          (w) =>
            html`<li class="entry">
              <h2>${w.friendly_name}</h2>
              <p class="mono">${w.image}</p>
              <p>${w.description}</p>
              <p>
                Compatibility: ${w.compatibility.join(', ') || 'none listed'} —
                <strong
                  >${w.compatible ? `compatible with ${view.series}` : `not compatible with ${view.series}`}</strong
                >
              </p>
              ${
                w.ignored_config.length > 0
                  ? html`<p class="muted">
                      Not honoured:
                      ${w.ignored_config.map((c) => `${c.key} (${c.reason})`).join('; ')}
                    </p>`
                  : null
              }
              ${
                w.installed
                  ? installedCopy(view, w)
                  : install
                    ? actionForm(
                        person,
                        `/admin/workspaces/registries/${id}/install`,
                        html`${w.compatible ? 'Install' : 'Install anyway'}<span
                            class="visually-hidden"
                          >
                            ${w.friendly_name}</span
                          >`,
                        {
                          fields: w.compatible ? { name: w.name } : { name: w.name, force: 'on' },
                          style: w.compatible ? undefined : 'danger',
                        },
                      )
                    : null
              }
            </li>`,
        )}
      </ul>`,
  });
}

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
              Cores ${image.cores}, memory ${mb(image.memory)} MB, enabled ${yesNo(image.enabled)},
              profile path <span class="mono">${image.persistentProfilePath || '—'}</span>.
            </p>`
      }
      ${mappings ? mappingsPart(person, image, mappings) : null}`,
  });
}
