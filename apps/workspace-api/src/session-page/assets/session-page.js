// The session page: the desktop in noVNC (served by the platform, talking to the session's stream
// through the proxy) and its panel (session-panel.js). The desktop follows the window (remote
// resize) and is scaled where the server cannot resize; a cut stream is reconnected, and the
// page says so; a session that slept or ended is said to have, and not dialled again.
import RFB from './novnc/core/rfb.js';
import { mountPanel } from './session-panel.js';

const kasmId = document.body.dataset.kasmId;
const base = `/kasm/${kasmId}`;
const screen = document.getElementById('screen');
const notice = document.getElementById('notice');
const streamUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base}/websockify`;
const MAX_DELAY_MS = 15_000;

/** What a failed status answer means for reconnecting: null to try again later. */
const GONE = {
  401: 'Your access to this session ended: open it again from your workspaces.',
  403: 'Your access to this session ended: open it again from your workspaces.',
  404: 'The session has ended.',
  409: 'The session is asleep or paused: resume it from your workspaces.',
};

function say(text, tone = 'info') {
  notice.textContent = text;
  notice.dataset.tone = tone;
  notice.hidden = text === '';
}

const desktop = {
  rfb: null,
  /** remote: the desktop is resized to the window (scaled if it cannot be); scale; actual. */
  display: localStorage.getItem('session-display') || 'remote',
  ended: false,
  wasConnected: false,
  attempts: 0,
  onClipboard: () => {},
  onConnect: () => {},

  setDisplay(mode) {
    this.display = mode;
    localStorage.setItem('session-display', mode);
    if (this.rfb) applyDisplay(this.rfb, mode);
  },
  focus() {
    this.rfb?.focus({ preventScroll: true });
  },
  /** The page stops dialling: the session slept or ended (said by `message`). */
  end(message) {
    this.ended = true;
    document.body.dataset.connection = 'ended';
    this.rfb?.disconnect();
    say(message, 'ended');
  },
};

/**
 * The grant's role. View and watch only look: the proxy's referee drops their input. noVNC's own
 * viewOnly is not used: noVNC 1.7 in view-only mode leaves an extended clipboard message's
 * payload unread and loses the stream's framing (the next message is garbage, the stream ends).
 */
const standing = { role: document.body.dataset.role || 'owner' };

function applyDisplay(rfb, mode) {
  // Only the owner resizes the desktop; others scale it to their window.
  rfb.resizeSession = mode === 'remote' && standing.role === 'owner';
  // Scaling also catches a server that refuses the resize: the desktop still fits the window.
  rfb.scaleViewport = mode !== 'actual';
  rfb.clipViewport = false;
  screen.dataset.display = mode;
}

function connect() {
  const rfb = new RFB(screen, streamUrl, { shared: true });
  rfb.focusOnClick = true;
  rfb.showDotCursor = true;
  applyDisplay(rfb, desktop.display);
  rfb.addEventListener('connect', () => {
    document.body.dataset.connection = 'connected';
    const again = desktop.wasConnected;
    desktop.wasConnected = true;
    desktop.attempts = 0;
    say(again ? 'Reconnected.' : '', 'ok');
    if (again) setTimeout(() => notice.textContent === 'Reconnected.' && say(''), 5000);
    rfb.focus({ preventScroll: true });
    desktop.onConnect();
  });
  rfb.addEventListener('disconnect', () => {
    if (desktop.rfb === rfb) desktop.rfb = null;
    if (desktop.ended) return;
    document.body.dataset.connection = 'reconnecting';
    reconnectLater();
  });
  rfb.addEventListener('clipboard', (event) => desktop.onClipboard(event.detail.text));
  rfb.addEventListener('desktopname', (event) => {
    if (event.detail.name) document.title = `${event.detail.name} · ${document.title}`;
  });
  rfb.addEventListener('credentialsrequired', () =>
    desktop.end('The desktop asks for a password the platform does not have.'),
  );
  desktop.rfb = rfb;
}

function reconnectLater() {
  const delay = Math.min(500 * 2 ** desktop.attempts, MAX_DELAY_MS);
  desktop.attempts += 1;
  const seconds = Math.max(1, Math.round(delay / 1000));
  say(
    desktop.wasConnected
      ? `Connection lost. Reconnecting in ${seconds} s…`
      : `The desktop is not reachable yet. Trying again in ${seconds} s…`,
    'warn',
  );
  setTimeout(async () => {
    // A joiner's page asks its standing (the session's status is the owner's to read).
    const what = standing.role === 'owner' ? 'status' : 'standing';
    const status = await fetch(`${base}/_session/${what}`, { cache: 'no-store' }).then(
      (res) => res.status,
      () => 0,
    );
    if (desktop.ended) return;
    if (GONE[status]) return desktop.end(GONE[status]);
    if (status !== 200) return reconnectLater();
    say('Reconnecting…', 'warn');
    connect();
  }, delay);
}

// F8 opens the panel from the desktop (which otherwise takes every key, Tab included), as
// TigerVNC's viewer does; the panel's keys list sends F8 itself.
window.addEventListener(
  'keydown',
  (event) => {
    if (event.key !== 'F8' || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    panel.toggle();
  },
  true,
);
window.addEventListener('keyup', (event) => event.key === 'F8' && event.stopPropagation(), true);

// The page's standing, every few seconds: a joiner's role follows the owner's change live (no
// reconnect); the owner's page says which administrators are watching while they do.
const standingLine = document.getElementById('standing');
const STANDING_MS = 2000;
async function followStanding() {
  const answer = await fetch(`${base}/_session/standing`, { cache: 'no-store' }).then(
    (res) => (res.ok ? res.json() : null),
    () => null,
  );
  if (answer) {
    if (answer.role !== standing.role) {
      standing.role = answer.role;
      document.body.dataset.role = answer.role;
      if (desktop.rfb) applyDisplay(desktop.rfb, desktop.display);
    }
    const names = answer.watchers.map((w) => w.username);
    const line =
      answer.role === 'watch'
        ? 'You are watching this session, view only.'
        : answer.role === 'view'
          ? 'View only: the owner may give you control.'
          : names.length > 0
            ? `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} watching (an administrator, view only).`
            : '';
    standingLine.textContent = line;
    standingLine.hidden = line === '';
  }
  if (!desktop.ended) setTimeout(followStanding, STANDING_MS);
}

const panel = mountPanel(document.getElementById('panel'), {
  kasmId,
  base,
  desktop,
  toggle: document.getElementById('panel-toggle'),
});
connect();
void followStanding();
