import { createHash } from 'node:crypto';
import { html, type Html } from '@platform/http';
import {
  type ApplyOptions,
  type ApplyResult,
  countChanges,
  formatChange,
  formatProblem,
} from '../../settings';
import { csrfInput } from '../../web';
import { type AdminPerson, may } from '../admin-context';
import { adminPage } from '../admin-layout';

const KIND = { '+': 'add', '~': 'change', '-': 'remove' } as const;
const NEWLINE = '\n';

function uploadForm(person: AdminPerson): Html {
  return html`<form
    method="post"
    action="/admin/settings/plan"
    enctype="multipart/form-data"
    class="upload"
  >
    ${csrfInput(person.csrf)}
    <div class="field">
      <label for="settings-file">Settings file (YAML or JSON)</label>
      <input
        id="settings-file"
        name="file"
        type="file"
        accept=".yaml,.yml,.json,text/yaml"
        required
      />
    </div>
    <div class="check">
      <input id="settings-prune" name="prune" type="checkbox" />
      <label for="settings-prune">Prune: delete what the file does not list</label>
    </div>
    <p><button type="submit">Show the plan</button></p>
  </form>`;
}

export function settingsPage(person: AdminPerson): Html {
  return adminPage(person, {
    title: 'Settings as code',
    section: 'settings',
    body: html`<p>
        Zones, agents, workspaces' profile paths and file mappings, kept in one file as the
        <code>settings export</code> and <code>settings apply</code> commands keep them.
      </p>
      <h2>Download</h2>
      <p>
        <a href="/admin/settings/export" download="settings.yaml"
          >Download the settings (settings.yaml)</a
        >
      </p>
      <h2>Upload</h2>
      <p class="muted">
        Nothing is written until you apply the plan the upload shows. A
        <code>content_file</code> cannot be uploaded beside the file: put its text in
        <code>content</code>.
      </p>
      ${uploadForm(person)}`,
  });
}

/** The plan as a diff: one line per change, marked + (create), ~ (update) or - (delete). */
function diff(lines: string[]): Html {
  const kind = (line: string) => KIND[line[0] as keyof typeof KIND] ?? '';
  const rows = lines.map((line) => html`<span class="${kind(line)}">${line}</span>${NEWLINE}`);
  return html`<pre class="diff" id="plan">${rows}</pre>`;
}

/** Names the plan a person saw, so that an apply can tell whether it would write that plan. */
export const planDigest = (changes: ApplyResult['changes']) =>
  createHash('sha256').update(changes.map(formatChange).join('\n')).digest('hex');

function applyForm(person: AdminPerson, text: string, result: ApplyResult, options: ApplyOptions) {
  return html`<form method="post" action="/admin/settings/apply" enctype="multipart/form-data">
    ${csrfInput(person.csrf)}
    <input type="hidden" name="file" value="${text}" />
    <input type="hidden" name="plan" value="${planDigest(result.changes)}" />
    ${options.prune ? html`<input type="hidden" name="prune" value="on" />` : null}
    <button type="submit">Apply these changes</button>
    <a href="/admin/settings">Cancel</a>
  </form>`;
}

/** What a dry run would change, or what an apply did, or why the file cannot be applied. */
export function settingsResultPage(
  person: AdminPerson,
  result: ApplyResult,
  text: string,
  options: ApplyOptions,
  /** The settings changed since the person's plan: this is the new one. */
  stale = false,
): Html {
  const lines = result.changes.map(formatChange);
  const body = (() => {
    switch (result.status) {
      case 'invalid':
        return html`<p class="error" role="alert">
            The file has ${result.problems.length}
            problem${result.problems.length === 1 ? '' : 's'}; nothing was written.
          </p>
          <ul class="error">
            ${result.problems.map((p) => html`<li class="mono">${formatProblem('settings.yaml', p)}</li>`)}
          </ul>`;
      case 'unchanged':
        return html`<p role="status">No changes: the settings already match the file.</p>`;
      case 'dry_run':
        return html`${
            stale
              ? html`<p class="error" role="alert">
                  The settings changed since that plan was shown, so nothing was written: this is
                  the plan now.
                </p>`
              : null
          }
          <p role="status">
            Plan${options.prune ? ' (with prune)' : ''}: ${countChanges(result.changes)}. Nothing
            was written yet.
          </p>
          ${diff(lines)}
          ${
            may(person, 'settings.modify')
              ? applyForm(person, text, result, options)
              : html`<p>Applying needs the settings.modify permission.</p>`
          }`;
      case 'applied':
        return html`<p class="notice" role="status">
            Applied ${result.written} change${result.written === 1 ? '' : 's'}:
            ${countChanges(result.changes, true)}.
          </p>
          ${diff(lines)}`;
    }
  })();
  return adminPage(person, {
    title: result.status === 'applied' ? 'Settings applied' : 'Settings plan',
    section: 'settings',
    body: html`${body}
      <p><a href="/admin/settings">Back to Settings as code</a></p>`,
  });
}
