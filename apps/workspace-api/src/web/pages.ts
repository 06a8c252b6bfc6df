import { html, type Html } from '@platform/http';
import { csrfInput, header, layout } from './layout';
import { sessionsSection, type SessionLine } from './session-pages';

export interface WorkspaceCard {
  imageId: string;
  friendlyName: string;
  description: string;
  categories: string[];
}

/** Past this many workspaces the page offers a search box. */
export const SEARCH_FROM = 8;

/** Where a sign-in may lead besides `/`: the console's pages. */
export const NEXT_PAGE = /^\/admin(\/[\w./-]*)?(\?[\w=&%.-]*)?$/;

export function signInPage(o: {
  csrf: string;
  /** Identity providers offered as "Sign in with …" buttons (links that leave for them). */
  providers?: { name: string; displayName: string }[];
  /** Directories (LDAP) whose accounts sign in with this form, named under it. */
  directories?: { name: string; displayName: string }[];
  username?: string;
  error?: string;
  /** The page to go to once signed in (NEXT_PAGE), instead of `/`. */
  next?: string;
}): Html {
  return layout(
    'Sign in',
    html`${header(null, null)}
      <main id="main" class="narrow">
        <h1>Sign in</h1>
        ${o.error ? html`<p class="error" role="alert" id="sign-in-error">${o.error}</p>` : null}
        <form method="post" action="/sign-in" class="stack">
          ${csrfInput(o.csrf)}
          ${
            o.next && NEXT_PAGE.test(o.next)
              ? html`<input type="hidden" name="next" value="${o.next}" />`
              : null
          }
          <label for="username">Username</label>
          <input
            id="username"
            name="username"
            autocomplete="username"
            required
            maxlength="255"
            value="${o.username ?? ''}"
            ${o.username ? null : html`autofocus`}
          />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxlength="1024"
            ${o.username ? html`autofocus` : null}
          />
          <button type="submit">Sign in</button>
        </form>
        ${
          o.directories?.length
            ? html`<p class="muted" id="directory-hint">
                Accounts of ${o.directories.map((d) => d.displayName).join(', ')} sign in here too.
              </p>`
            : null
        }
        ${providerLinks(o.providers ?? [], o.next)}
      </main>`,
  );
}

function providerLinks(providers: { name: string; displayName: string }[], next?: string) {
  if (providers.length === 0) return null;
  const query = next && NEXT_PAGE.test(next) ? `?next=${encodeURIComponent(next)}` : '';
  return html`<ul class="stack providers" aria-label="Other ways to sign in">
    ${providers.map(
      (p) =>
        html`<li>
          <a class="button secondary" href="/sign-in/sso/${encodeURIComponent(p.name)}${query}"
            >Sign in with ${p.displayName}</a
          >
        </li>`,
    )}
  </ul>`;
}

export function linkPage(o: { csrf: string; token: string }): Html {
  return layout(
    'Sign in with a link',
    html`${header(null, null)}
      <main id="main" class="narrow">
        <h1>Sign in with a link</h1>
        <p>This link signs you in once. Continue to open your workspaces.</p>
        <form method="post" action="/sign-in/link" class="stack">
          ${csrfInput(o.csrf)}<input type="hidden" name="token" value="${o.token}" />
          <button type="submit">Continue</button>
        </form>
      </main>`,
  );
}

export function messagePage(o: {
  title: string;
  message: string;
  username?: string | null;
  csrf?: string | null;
}): Html {
  return layout(
    o.title,
    html`${header(o.username ?? null, o.csrf ?? null)}
      <main id="main" class="narrow">
        <h1>${o.title}</h1>
        <p role="alert">${o.message}</p>
        <p><a href="/">Back to the start page</a></p>
      </main>`,
  );
}

function workspaceCard(w: WorkspaceCard, csrf: string): Html {
  const search = [w.friendlyName, w.description, ...w.categories].join(' ').toLowerCase();
  return html`<li class="card" data-search="${search}">
    <img src="/icons/${w.imageId}" alt="" width="56" height="56" />
    <div class="card-body">
      <h3>${w.friendlyName}</h3>
      <p>${w.description}</p>
      ${
        w.categories.length > 0
          ? html`<ul class="tags" aria-label="Categories">
              ${w.categories.map((c) => html`<li>${c}</li>`)}
            </ul>`
          : null
      }
      <form method="post" action="/workspaces/${w.imageId}/launch" target="_blank">
        ${csrfInput(csrf)}<button type="submit">
          Launch<span class="visually-hidden"> ${w.friendlyName}</span>
        </button>
      </form>
    </div>
  </li>`;
}

export function dashboardPage(o: {
  username: string;
  csrf: string;
  workspaces: WorkspaceCard[];
  sessions: SessionLine[];
  query: string;
  notice?: string;
}): Html {
  const q = o.query.trim().toLowerCase();
  const shown = q
    ? o.workspaces.filter((w) =>
        [w.friendlyName, w.description, ...w.categories].join(' ').toLowerCase().includes(q),
      )
    : o.workspaces;
  return layout(
    'Your workspaces',
    html`${header(o.username, o.csrf)}
      <main id="main" data-csrf="${o.csrf}">
        ${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : null}
        <section aria-labelledby="sessions-title">
          <h1 id="sessions-title">Your sessions</h1>
          <div id="sessions" aria-live="polite">${sessionsSection(o.sessions, o.csrf)}</div>
        </section>
        <section aria-labelledby="workspaces-title">
          <h2 id="workspaces-title">Workspaces</h2>
          ${
            o.workspaces.length > SEARCH_FROM || q
              ? html`<form method="get" action="/" class="search" role="search">
                  <label for="q">Search workspaces</label>
                  <input id="q" name="q" type="search" value="${o.query}" />
                  <button type="submit" class="secondary">Search</button>
                </form>`
              : null
          }
          ${
            o.workspaces.length === 0
              ? html`<p>
                  No workspace is available to you yet. An administrator adds workspaces to your
                  groups.
                </p>`
              : html`<ul class="workspaces" id="workspaces">
                    ${shown.map((w) => workspaceCard(w, o.csrf))}
                  </ul>
                  <p id="no-match" ${shown.length === 0 ? null : html`hidden`}>
                    No workspace matches your search.
                  </p>`
          }
        </section>
      </main>`,
  );
}
