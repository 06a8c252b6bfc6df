/**
 * Who sends on a session's stream: its owner, a joiner who controls the desktop or only views
 * it, or an administrator who watches. The proxy referees the browser's side of a joiner's
 * stream by this (docs/sharing.md): a viewer's input never reaches the desktop.
 */
export type StreamRole = 'owner' | 'control' | 'view' | 'watch';

export const isStreamRole = (role: string): role is StreamRole =>
  role === 'owner' || role === 'control' || role === 'view' || role === 'watch';

/** Holds a stream's role, read at each message: the owner's change takes effect live. */
export interface Referee {
  role: StreamRole;
}

/** KeyEvent, PointerEvent, ClientCutText, QEMU's extended KeyEvent: a person's input. */
const INPUT = new Set([4, 5, 6, 255]);
/** xvp (shutdown, reboot) and SetDesktopSize: the owner's alone. */
const OWNERS = new Set([250, 251]);

/** Whether a client message of `type` may reach the desktop from a stream of `role`. */
export function mayPass(role: StreamRole, type: number): boolean {
  if (role === 'owner') return true;
  if (OWNERS.has(type)) return false;
  if (INPUT.has(type)) return role === 'control';
  return true;
}
