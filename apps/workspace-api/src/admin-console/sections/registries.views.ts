import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import type { ImageRow } from '../../images';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { actionForm, adminPage } from '../admin-layout';
import type { WorkspacesSectionDeps } from './workspaces-deps';

type RegistryRow = Awaited<ReturnType<WorkspacesSectionDeps['registries']['list']>>[number];
type Listed = Awaited<ReturnType<WorkspacesSectionDeps['registryWorkspaces']['list']>>;

export function registriesPart(person: AdminPerson, rows: RegistryRow[]): Html {
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
