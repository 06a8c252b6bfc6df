// Key combinations a browser (or the person's own system) would take for itself, sent to the
// desktop from the panel: each is its keys pressed in order and released in reverse, as keysyms
// with their physical codes (noVNC sends QEMU's extended key events when the server takes them).
import KeyTable from './novnc/core/input/keysym.js';

const CTRL = [KeyTable.XK_Control_L, 'ControlLeft'];
const ALT = [KeyTable.XK_Alt_L, 'AltLeft'];
const SHIFT = [KeyTable.XK_Shift_L, 'ShiftLeft'];
const SUPER = [KeyTable.XK_Super_L, 'MetaLeft'];
const letter = (c) => [c.charCodeAt(0), `Key${c.toUpperCase()}`];

/** The combinations offered, by their label. */
export const COMBINATIONS = [
  ['Ctrl+Alt+Del', [CTRL, ALT, [KeyTable.XK_Delete, 'Delete']]],
  ['Ctrl+W', [CTRL, letter('w')]],
  ['Ctrl+T', [CTRL, letter('t')]],
  ['Ctrl+N', [CTRL, letter('n')]],
  ['Ctrl+Q', [CTRL, letter('q')]],
  ['Ctrl+Shift+T', [CTRL, SHIFT, letter('t')]],
  ['Ctrl+Tab', [CTRL, [KeyTable.XK_Tab, 'Tab']]],
  ['Alt+Tab', [ALT, [KeyTable.XK_Tab, 'Tab']]],
  ['Alt+F4', [ALT, [KeyTable.XK_F4, 'F4']]],
  ['Super', [SUPER]],
  ['Escape', [[KeyTable.XK_Escape, 'Escape']]],
  ['F8', [[KeyTable.XK_F8, 'F8']]],
  ['F11', [[KeyTable.XK_F11, 'F11']]],
  ['Print Screen', [[KeyTable.XK_Print, 'PrintScreen']]],
];

/** Presses `keys` on the desktop of `rfb` and releases them in reverse order. */
export function sendCombination(rfb, keys) {
  for (const [keysym, code] of keys) rfb.sendKey(keysym, code, true);
  for (const [keysym, code] of [...keys].reverse()) rfb.sendKey(keysym, code, false);
}
