import { html, type Html } from '@platform/http';
import { csrfInput, layout } from '../web';
import type { AdminPerson } from './admin-context';

const HEAD = html`<link rel="stylesheet" href="/admin/assets/admin.css" />
  <script src="/admin/assets/admin.js" defer></script>`;

export interface AdminPageParts {
  title: string;
  /** The section whose page this is (marked in the navigation). */
  section?: string;
  body: Html;
  notice?: string;
}

function nav(person: AdminPerson, current: string | undefined): Html {
  return html`<nav class="admin-nav" aria-label="Console sections">
    <ul>
      ${person.sections.map(
        (s) =>
          html`<li>
            <a href="/admin/${s.id}" ${s.id === current ? html`aria-current="page"` : null}
              >${s.title}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
}

/** A console page: the header with who is signed in, the sections they may see, the content. */
export function adminPage(person: AdminPerson, parts: AdminPageParts): Html {
  return layout(
    `${parts.title} · Admin`,
    html`<header class="top">
        <a class="brand" href="/admin">Workspaces admin</a>
        <form method="post" action="/sign-out" class="signout">
          ${csrfInput(person.csrf)}<span>Signed in as <strong>${person.username}</strong></span>
          <a href="/">My workspaces</a>
          <button type="submit" class="secondary">Sign out</button>
        </form>
      </header>
      <div class="admin">
        ${nav(person, parts.section)}
        <main id="main" class="admin-main">
          <h1>${parts.title}</h1>
          ${parts.notice ? html`<p class="notice" role="status">${parts.notice}</p>` : null}
          ${parts.body}
        </main>
      </div>`,
    { head: HEAD },
  );
}

/** A form that posts one action with its CSRF token: a button, and hidden fields. */
export function actionForm(
  person: AdminPerson,
  action: string,
  label: string | Html,
  o: { fields?: Record<string, string>; style?: 'danger' | 'secondary'; confirm?: string } = {},
): Html {
  return html`<form
    method="post"
    action="${action}"
    class="inline"
    ${o.confirm ? html`data-confirm="${o.confirm}"` : null}
  >
    ${csrfInput(person.csrf)}
    ${Object.entries(o.fields ?? {}).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}
    <button type="submit" class="${o.style ?? ''}">${label}</button>
  </form>`;
}

/** A labelled text input in a form grid. */
export function field(
  name: string,
  label: string,
  value: string | number | null | undefined,
  o: {
    type?: string;
    required?: boolean;
    maxlength?: number;
    hint?: string;
    attrs?: Html;
    /** For a page with several forms holding the same field. */
    id?: string;
  } = {},
): Html {
  const id = o.id ?? `f-${name}`;
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input
      id="${id}"
      name="${name}"
      type="${o.type ?? 'text'}"
      value="${value ?? ''}"
      ${o.required ? html`required` : null}
      ${o.maxlength ? html`maxlength="${o.maxlength}"` : null}
      ${o.hint ? html`aria-describedby="${id}-hint"` : null}
      ${o.attrs ?? null}
    />
    ${o.hint ? html`<small id="${id}-hint" class="muted">${o.hint}</small>` : null}
  </div>`;
}

/** A labelled checkbox; a form posts `on` when it is ticked and nothing when not. */
export function checkbox(name: string, label: string, checked: boolean): Html {
  return html`<div class="check">
    <input id="f-${name}" name="${name}" type="checkbox" ${checked ? html`checked` : null} />
    <label for="f-${name}">${label}</label>
  </div>`;
}

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function dataTable(caption: string, headers: string[], rows: Html | Html[]): Html {
  return html`<div class="table-wrap">
    <table>
      <caption class="visually-hidden">
        ${caption}
      </caption>
      <thead>
        <tr>
          ${headers.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
