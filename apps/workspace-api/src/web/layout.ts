import { html, type Html } from '@platform/http';
import { CSRF_FIELD } from './web-security';

/** The hidden field that carries a form's CSRF token. */
export const csrfInput = (token: string) =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;

export function layout(title: string, body: Html, { head }: { head?: Html } = {}): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Workspaces</title>
        <link rel="icon" href="/assets/workspace.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/base.css" />
        <link rel="stylesheet" href="/assets/page.css" />
        <script src="/assets/page.js" defer></script>
        ${head}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${body}
      </body>
    </html>`;
}

export function header(username: string | null, csrf: string | null): Html {
  return html`<header class="top">
    <a class="brand" href="/">Workspaces</a>
    ${
      username && csrf
        ? html`<form method="post" action="/sign-out" class="signout">
            ${csrfInput(csrf)}<span>Signed in as <strong>${username}</strong></span>
            <button type="submit" class="secondary">Sign out</button>
          </form>`
        : null
    }
  </header>`;
}
