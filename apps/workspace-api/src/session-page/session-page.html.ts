import type { FastifyReply } from 'fastify';
import { html } from '@platform/http';

/** Where the page's own files and noVNC's modules are served, for every session alike. */
export const PAGE_ASSETS = '/kasm/_page';

/** The session a page is for: its id and the names it shows. */
export interface SessionPageInfo {
  kasmId: string;
  username: string;
  workspace: string;
  /** Whose page it is: the owner's, a joiner's (view, control) or an administrator's watch. */
  role?: string;
}

/**
 * The session page's policy: its own scripts only (noVNC's modules among them), the stream and
 * the session's endpoints on its own origin, images noVNC draws (its cursor is a data: URL),
 * and the inline styles noVNC's modules set on their elements. Nothing may frame it.
 */
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The platform's page of a session at `/kasm/<kasm_id>/`: the desktop (noVNC, from the
 * platform) and a panel beside it. Everything it does is its module's (assets/session-page.js);
 * this is the frame it fills.
 */
export function sendSessionPage(reply: FastifyReply, session: SessionPageInfo) {
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${session.workspace} · ${session.username}’s session</title>
        <link rel="stylesheet" href="${PAGE_ASSETS}/base.css" />
        <link rel="stylesheet" href="${PAGE_ASSETS}/session-page.css" />
        <script src="${PAGE_ASSETS}/files-panel.js" defer></script>
        <script src="/kasm/${session.kasmId}/_audio/player.js" defer></script>
        <script type="module" src="${PAGE_ASSETS}/session-page.js"></script>
      </head>
      <body data-kasm-id="${session.kasmId}" data-role="${session.role ?? 'owner'}">
        <main class="session" aria-label="${session.workspace}">
          <h1 class="visually-hidden">${session.workspace}, ${session.username}’s session</h1>
          <div id="screen" class="screen"></div>
          <p id="notice" class="notice" role="status" aria-live="polite">Connecting…</p>
          <p id="standing" class="notice standing" role="status" aria-live="polite" hidden></p>
        </main>
        <aside class="side" aria-label="Session panel">
          <button
            id="panel-toggle"
            type="button"
            class="panel-toggle"
            aria-controls="panel"
            aria-expanded="false"
          >
            Panel <kbd>F8</kbd>
          </button>
          <div id="panel" class="panel" hidden></div>
        </aside>
      </body>
    </html>`;
  return reply
    .header('content-security-policy', POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(String(page));
}
