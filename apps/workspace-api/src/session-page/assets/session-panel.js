// The session page's panel: time left, clipboard, keys a browser would take, display, sound,
// files (files-panel.js), sleep and end, sharing (session-sharing.js). Every control is a native one, reachable with Tab;
// F8 or the Panel button opens it, Escape closes it and gives the keys back to the desktop.
import { COMBINATIONS, sendCombination } from './session-keys.js';
import { mountSharing } from './session-sharing.js';

const STATUS_EVERY_MS = 30_000;

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

const section = (label, ...children) =>
  el('section', { class: 'panel-section' }, el('h2', {}, label), ...children);

function timeLeftText(seconds) {
  if (seconds <= 0) return 'ending now';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : minutes > 0 ? `${minutes} min` : `${seconds} s`;
}

/** A confirmation in a modal dialog (focus stays inside it; Escape cancels). */
function confirmInDialog(message, action) {
  const dialog = el('dialog', { class: 'confirm', 'aria-label': action });
  const yes = el('button', { type: 'button', class: 'danger' }, action);
  const no = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
  dialog.append(el('p', {}, message), el('div', { class: 'row' }, yes, no));
  document.body.append(dialog);
  return new Promise((resolve) => {
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    yes.addEventListener('click', () => close(true));
    no.addEventListener('click', () => close(false));
    dialog.addEventListener('cancel', () => close(false));
    dialog.showModal();
    no.focus();
  });
}

export function mountPanel(panel, { kasmId, base, desktop, toggle }) {
  const say = (node, text) => (node.textContent = text);

  // Time left, read from the session's status; counted down here between reads.
  const timeLeft = el('strong', { id: 'time-left' }, '…');
  let endsAt = null;
  async function readStatus() {
    const res = await fetch(`${base}/_session/status`, { cache: 'no-store' }).catch(() => null);
    if (res?.ok) endsAt = Date.parse((await res.json()).expiration_date);
  }
  const showTimeLeft = () =>
    endsAt && say(timeLeft, timeLeftText(Math.floor((endsAt - Date.now()) / 1000)));
  readStatus().then(showTimeLeft);
  setInterval(() => readStatus().then(showTimeLeft), STATUS_EVERY_MS);
  setInterval(showTimeLeft, 1000);

  // Clipboard: both ways on their own where the browser lets the page read and write it; the
  // field (and its button) otherwise, in one step.
  const field = el('textarea', { id: 'clipboard', rows: '3', spellcheck: 'false' });
  const sendText = el('button', { type: 'button' }, 'Send to the desktop');
  const clipNote = el('p', { class: 'hint', 'aria-live': 'polite' });
  let lastLocal = null;
  let lastRemote = null;
  desktop.onClipboard = (text) => {
    lastRemote = text;
    field.value = text;
    navigator.clipboard?.writeText(text).then(
      () => say(clipNote, 'Copied from the desktop to this computer.'),
      () => say(clipNote, 'Copied from the desktop: it is in the field above.'),
    );
  };
  const toDesktop = (text) => {
    if (!desktop.rfb) return false;
    desktop.rfb.clipboardPasteFrom(text);
    return true;
  };
  async function pullLocal() {
    if (!navigator.clipboard?.readText || !document.hasFocus()) return;
    const permission = await navigator.permissions
      ?.query({ name: 'clipboard-read' })
      .catch(() => null);
    if (permission?.state !== 'granted') return;
    const text = await navigator.clipboard.readText().catch(() => null);
    if (!text || text === lastLocal || text === lastRemote) return;
    if (toDesktop(text)) ((lastLocal = text), (field.value = text));
  }
  sendText.addEventListener('click', () => {
    say(clipNote, toDesktop(field.value) ? 'Sent: paste it in the desktop.' : 'Not connected.');
  });
  for (const event of ['focus', 'pointerdown']) window.addEventListener(event, pullLocal, true);
  desktop.onConnect = pullLocal;

  // Keys the browser would take.
  const combination = el('select', { id: 'keys' });
  COMBINATIONS.forEach(([label], i) =>
    combination.append(el('option', { value: String(i) }, label)),
  );
  const sendKeys = el('button', { type: 'button' }, 'Send keys');
  sendKeys.addEventListener('click', () => {
    if (!desktop.rfb) return;
    sendCombination(desktop.rfb, COMBINATIONS[Number(combination.value)][1]);
  });

  // Display: fit (remote resize), scale, actual size; full screen (keyboard lock where offered).
  const display = el('select', { id: 'display' });
  for (const [value, label] of [
    ['remote', 'Fit: resize the desktop to the window'],
    ['scale', 'Scale the desktop to the window'],
    ['actual', 'Actual size'],
  ])
    display.append(el('option', { value }, label));
  display.value = desktop.display;
  display.addEventListener('change', () => desktop.setDisplay(display.value));
  const fullScreen = el('button', { type: 'button', 'aria-pressed': 'false' }, 'Full screen');
  fullScreen.addEventListener('click', async () => {
    if (document.fullscreenElement) return document.exitFullscreen();
    await document.documentElement.requestFullscreen().catch(() => undefined);
    // Held keys (Ctrl+W, Alt+Tab…) then reach the desktop: Chromium offers it in full screen.
    await navigator.keyboard?.lock?.().catch(() => undefined);
  });
  document.addEventListener('fullscreenchange', () =>
    fullScreen.setAttribute('aria-pressed', String(Boolean(document.fullscreenElement))),
  );

  // Sound, when the session's player is on the page (window.platformSessionAudio, session-audio/).
  const sound = el('button', { type: 'button', 'aria-pressed': 'false', hidden: '' }, 'Sound');
  const soundNote = el('p', { class: 'hint', 'aria-live': 'polite' });
  const audio = window.platformSessionAudio;
  if (audio) {
    sound.hidden = false;
    const pressed = (on) => sound.setAttribute('aria-pressed', String(on));
    sound.addEventListener('click', async () => {
      if (sound.getAttribute('aria-pressed') === 'true') return (pressed(false), audio.stop());
      try {
        await audio.start({ kasmId, onEnd: () => pressed(false) });
        pressed(true);
        say(soundNote, '');
      } catch (error) {
        say(soundNote, error?.message || 'The sound could not start.');
      }
    });
  }

  // Sleep and end.
  const sleep = el('button', { type: 'button', class: 'secondary' }, 'Sleep');
  const end = el('button', { type: 'button', class: 'danger' }, 'End session');
  const sessionNote = el('p', { class: 'hint', 'aria-live': 'polite' });
  const change = (what, question, action, done) => async () => {
    if (!(await confirmInDialog(question, action))) return;
    const res = await fetch(`${base}/_session/${what}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => null);
    if (res?.ok) return desktop.end(done);
    const problem = res ? await res.json().catch(() => ({})) : {};
    say(sessionNote, problem.detail || 'That did not work: try again.');
  };
  sleep.addEventListener(
    'click',
    change(
      'stop',
      'Put the session to sleep? Its programs stop; its files stay until you resume it.',
      'Sleep',
      'The session is asleep. Resume it from your workspaces.',
    ),
  );
  end.addEventListener(
    'click',
    change(
      'destroy',
      'End the session? Its desktop and everything not saved in your profile are removed.',
      'End session',
      'The session has ended.',
    ),
  );

  const files = el('div', { class: 'files' });
  const sharing = el('div', { class: 'sharing' });
  panel.append(
    el('p', { class: 'time' }, 'Time left: ', timeLeft),
    section(
      'Clipboard',
      el('label', { for: 'clipboard' }, 'Text to or from the desktop'),
      field,
      sendText,
      clipNote,
    ),
    section(
      'Keys',
      el('label', { for: 'keys' }, 'Keys for the desktop'),
      el('div', { class: 'row' }, combination, sendKeys),
    ),
    section(
      'Display',
      el('label', { for: 'display' }, 'Size'),
      display,
      el('div', { class: 'row' }, fullScreen, sound),
      soundNote,
    ),
    section('Files', files),
    section('Session', el('div', { class: 'row' }, sleep, end), sessionNote),
    section('Sharing', sharing),
    el('p', { class: 'hint' }, 'F8 opens and closes this panel; Escape closes it.'),
  );
  if (window.mountFilesPanel) window.mountFilesPanel(files, { kasmId });
  mountSharing(sharing, { base, el });

  function setOpen(open) {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) panel.querySelector('textarea, select, button')?.focus();
    else desktop.focus();
  }
  toggle.addEventListener('click', () => setOpen(panel.hidden));
  // On the document, not the panel: focus tabbed past the panel's last control still closes it.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !panel.hidden && !event.defaultPrevented) setOpen(false);
  });
  return { toggle: () => setOpen(panel.hidden) };
}
