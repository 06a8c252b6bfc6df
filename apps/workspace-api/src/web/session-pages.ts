import { html, type Html } from '@platform/http';
import { csrfInput, header, layout } from './layout';

export interface SessionLine {
  kasmId: string;
  friendlyName: string;
  status: string;
  progress: number;
  message: string;
  /** The launch phase under way, in words ("pulling"); null when none runs. */
  phase: string | null;
  expiresAt: Date;
}

export function sessionsSection(sessions: SessionLine[], csrf: string): Html {
  if (sessions.length === 0) return html`<p id="no-sessions">You have no running sessions.</p>`;
  return html`<ul class="sessions">
    ${sessions.map(
      (s) =>
        html`<li class="session" data-kasm-id="${s.kasmId}">
          <div>
            <strong>${s.friendlyName}</strong>
            <span class="status"
              >${s.status}${s.status === 'running' ? null : html` (${s.progress}%)`}</span
            >
            ${s.message ? html`<span class="muted">${s.message}</span>` : null}
            <span class="muted"
              >until
              <time datetime="${s.expiresAt.toISOString()}"
                >${s.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</time
              ></span
            >
          </div>
          <div class="actions">
            <form method="post" action="/sessions/${s.kasmId}/open" target="_blank">
              ${csrfInput(csrf)}<button
                type="submit"
                ${s.status === 'running' ? null : html` disabled`}
              >
                Open<span class="visually-hidden"> ${s.friendlyName}</span>
              </button>
            </form>
            <form method="post" action="/sessions/${s.kasmId}/keepalive">
              ${csrfInput(csrf)}<button
                type="submit"
                class="secondary"
                ${s.status === 'running' ? null : html` disabled`}
              >
                Keep alive<span class="visually-hidden"> ${s.friendlyName}</span>
              </button>
            </form>
            <form method="post" action="/sessions/${s.kasmId}/destroy">
              ${csrfInput(csrf)}<button type="submit" class="danger">
                Destroy<span class="visually-hidden"> ${s.friendlyName}</span>
              </button>
            </form>
          </div>
        </li>`,
    )}
  </ul>`;
}

export function startPage(o: { username: string; csrf: string; session: SessionLine }): Html {
  const s = o.session;
  const running = s.status === 'running';
  return layout(
    `Starting ${s.friendlyName}`,
    html`${header(o.username, o.csrf)}
      <main id="main" class="narrow" data-kasm-id="${s.kasmId}">
        <h1>${s.friendlyName}</h1>
        <p id="launch-status" role="status">
          ${running ? 'Ready' : s.status === 'error' ? 'The launch failed' : 'Starting'}:
          <span id="status-text">${s.status}</span>
          <span id="launch-phase" class="muted">${s.phase ?? ''}</span>
        </p>
        <progress id="launch-progress" max="100" value="${s.progress}" aria-label="Launch progress">
          ${s.progress}%
        </progress>
        <p id="launch-message" class="muted">${s.message}</p>
        <form method="post" action="/sessions/${s.kasmId}/open" id="open-form">
          ${csrfInput(o.csrf)}<button
            type="submit"
            id="open-button"
            ${running ? null : html` disabled`}
          >
            Open the workspace
          </button>
        </form>
        <p><a href="/">Back to your workspaces</a></p>
      </main>`,
    {
      head: running
        ? undefined
        : html`<noscript><meta http-equiv="refresh" content="3" /></noscript>`,
    },
  );
}

/**
 * Between the Open button and a session on another host: the page's CSP (`form-action 'self'`)
 * also governs where a form's redirect may go, so the browser goes on by itself from here.
 */
export function openingPage(o: { friendlyName: string; url: string }): Html {
  return layout(
    `Opening ${o.friendlyName}`,
    html`<main id="main" class="narrow">
      <h1>Opening ${o.friendlyName}</h1>
      <p><a id="continue" href="${o.url}">Continue to the workspace</a></p>
    </main>`,
    { head: html`<meta http-equiv="refresh" content="0; url=${o.url}" />` },
  );
}
