import { html, type Html } from '@platform/http';
import type { FieldProblem } from '@platform/errors';
import type { SsoProviderResponse } from '../../sso';
import { csrfInput } from '../../web';
import { may, type AdminPerson } from '../admin-context';
import { actionForm, adminPage, checkbox, dataTable, field } from '../admin-layout';

/** A provider as the form holds it: its kind's block and its mappings as text. */
export interface ProviderForm {
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  /** The kind's block as YAML. */
  settings: string;
  /** One `value = Group name` a line. */
  mappings: string;
}

/** The kind's settings, from its schema: name, default and what it is, for the form's help. */
export interface KindField {
  name: string;
  required: boolean;
  fallback: string;
  description: string;
}

function providersTable(person: AdminPerson, providers: SsoProviderResponse[]): Html {
  const modify = may(person, 'settings.modify');
  return dataTable(
    'Identity providers',
    ['Name', 'Kind', 'Button text', 'State', 'Group mappings', 'Actions'],
    providers.map(
      (p) =>
        html`<tr>
          <td><a href="/admin/sso/${p.name}">${p.name}</a></td>
          <td>${p.kind}</td>
          <td>${p.display_name}</td>
          <td>${p.enabled ? 'enabled' : 'disabled'}</td>
          <td>
            ${
              p.group_mappings.length
                ? p.group_mappings.map((m) => `${m.value} → ${m.group_name}`).join(', ')
                : 'none'
            }
          </td>
          <td>
            ${
              modify
                ? html`${actionForm(
                    person,
                    `/admin/sso/${p.name}/${p.enabled ? 'disable' : 'enable'}`,
                    html`${p.enabled ? 'Disable' : 'Enable'}<span class="visually-hidden">
                        ${p.name}</span
                      >`,
                    { style: 'secondary' },
                  )}
                  ${actionForm(
                    person,
                    `/admin/sso/${p.name}/delete`,
                    html`Delete<span class="visually-hidden"> ${p.name}</span>`,
                    {
                      style: 'danger',
                      confirm: `Delete the identity provider ${p.name}? Its users stay, with no way to sign in through it.`,
                    },
                  )}`
                : null
            }
          </td>
        </tr>`,
    ),
  );
}

export function ssoPage(
  person: AdminPerson,
  providers: SsoProviderResponse[],
  kinds: readonly string[],
  notice?: string,
): Html {
  return adminPage(person, {
    title: 'Sign-in providers',
    section: 'sso',
    notice,
    body: html`<p>
        Users sign in through these identity providers (see docs/sso.md). The settings file's
        <code>sso_providers</code> describes the same.
      </p>
      ${providers.length ? providersTable(person, providers) : html`<p>No provider yet.</p>`}
      ${
        may(person, 'settings.modify')
          ? html`<h2>Add a provider</h2>
              <form method="get" action="/admin/sso/new" class="inline">
                <div class="field">
                  <label for="f-new-kind">Kind</label>
                  <select id="f-new-kind" name="kind">
                    ${kinds.map((k) => html`<option value="${k}">${k}</option>`)}
                  </select>
                </div>
                <button type="submit">Add a provider</button>
              </form>`
          : null
      }`,
  });
}

function problemsList(problems: FieldProblem[] | null): Html | null {
  if (!problems) return null;
  if (problems.length === 0)
    return html`<p class="notice" role="status" id="sso-test-result">
      No problem found: the configuration works.
    </p>`;
  return html`<div role="alert" id="sso-test-result" class="error">
    <p>${problems.length} problem(s):</p>
    <ul>
      ${problems.map((p) => html`<li><code>${p.field}</code>: ${p.message}</li>`)}
    </ul>
  </div>`;
}

/** A provider's form: new (`creating`) or existing; `problems` are a test's or a refused save's. */
export function providerPage(
  person: AdminPerson,
  o: {
    form: ProviderForm;
    creating: boolean;
    fields: KindField[];
    problems: FieldProblem[] | null;
  },
): Html {
  const { form, creating } = o;
  const action = creating ? '/admin/sso/create' : `/admin/sso/${form.name}/update`;
  const modify = may(person, 'settings.modify');
  return adminPage(person, {
    title: creating ? `New ${form.kind} provider` : `Provider ${form.name}`,
    section: 'sso',
    body: html`${problemsList(o.problems)}
      <form method="post" action="${action}" class="stack">
        ${csrfInput(person.csrf)}
        <input type="hidden" name="kind" value="${form.kind}" />
        <div class="form-grid">
          ${
            creating
              ? field('name', 'Name', form.name, {
                  required: true,
                  maxlength: 64,
                  hint: 'Lowercase letters, digits and -: part of its sign-in URLs',
                })
              : html`<input type="hidden" name="name" value="${form.name}" />`
          }
          ${field('display_name', 'Button text', form.displayName, {
            required: true,
            maxlength: 128,
            hint: 'Shown as "Sign in with …"',
          })}
        </div>
        ${checkbox('enabled', 'Enabled (offered on the sign-in page)', form.enabled)}
        <div class="field">
          <label for="f-settings">${form.kind} settings (YAML)</label>
          <textarea
            id="f-settings"
            name="settings"
            rows="10"
            spellcheck="false"
            aria-describedby="f-settings-hint"
          >
${form.settings}</textarea>
          <small id="f-settings-hint" class="muted"
            >Secrets only by reference: <code>{env: VARIABLE}</code> or
            <code>{file: /run/secrets/…}</code>.</small
          >
        </div>
        <div class="field">
          <label for="f-mappings">Group mappings</label>
          <textarea
            id="f-mappings"
            name="mappings"
            rows="4"
            spellcheck="false"
            aria-describedby="f-mappings-hint"
          >
${form.mappings}</textarea>
          <small id="f-mappings-hint" class="muted"
            >One a line: <code>value = Group name</code>. Users the provider names with the value
            are members of the group.</small
          >
        </div>
        ${
          modify
            ? html`<div class="actions">
                <button type="submit" formaction="/admin/sso/test" class="secondary">
                  Test this configuration
                </button>
                <button type="submit">${creating ? 'Add provider' : 'Save'}</button>
              </div>`
            : null
        }
      </form>
      <h2>The ${form.kind} settings</h2>
      ${dataTable(
        `The ${form.kind} settings`,
        ['Setting', 'Default', 'What'],
        o.fields.map(
          (f) =>
            html`<tr>
              <td><code>${f.name}</code>${f.required ? ' (required)' : ''}</td>
              <td>${f.fallback}</td>
              <td>${f.description}</td>
            </tr>`,
        ),
      )}
      <p><a href="/admin/sso">Back to sign-in providers</a></p>`,
  });
}
