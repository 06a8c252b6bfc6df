import { html, type Html } from '@platform/http';
import { toWireId } from '@platform/schemas';
import { BYTES_PER_MB, type ImageRow } from '../../images';
import type { AdminPerson } from '../admin-context';
import { adminPage } from '../admin-layout';
import { registriesPart } from './registries.views';
import type { WorkspacesSectionDeps } from './workspaces-deps';

type RegistryRow = Awaited<ReturnType<WorkspacesSectionDeps['registries']['list']>>[number];

export const yesNo = (value: boolean) => (value ? 'yes' : 'no');
/** Bytes as the MB (1,000,000 bytes) registries and Kasm's images count in. */
export const mb = (bytes: bigint | number) => Math.round(Number(bytes) / BYTES_PER_MB);

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
