import type { Page } from 'playwright-core';
import { waitFor } from '@platform/testing';
import { DESKTOP_CANVAS, LONG, type DesktopWorld } from './desktop-fixture';

/** The panel's notice over the desktop (connection, sleep, end). */
export const notice = (tab: Page) => tab.locator('#notice');

/** Clicks into the desktop and opens the panel with F8, as a keyboard user does. */
export async function openPanelWithF8(tab: Page): Promise<void> {
  await tab.locator(DESKTOP_CANVAS).click({ position: { x: 600, y: 400 } });
  await tab.keyboard.press('F8');
  await tab.locator('#panel').waitFor({ state: 'visible' });
}

/** Escape from the panel: it closes and the desktop has the keys again. */
export async function closePanelWithEscape(tab: Page): Promise<void> {
  await tab.keyboard.press('Escape');
  await tab.locator('#panel').waitFor({ state: 'hidden' });
}

/** What has the focus: its tag and its id, or its text for a button or link. */
export const focused = (tab: Page): Promise<string> =>
  tab.evaluate(`(() => {
    const e = document.activeElement;
    if (!e) return '';
    const name = e.id || (e.tagName === 'BUTTON' || e.tagName === 'A' ? e.textContent.trim() : e.className);
    return e.tagName.toLowerCase() + ':' + name;
  })()`);

/**
 * Cuts the session's stream on the service side: the container's websockify process serving
 * that connection (the newest of them: websockify serves each in a process of its own) is
 * killed, as the desktop's user. The pattern is put together so that the command's own shell
 * does not match it.
 */
export async function cutStream(world: DesktopWorld, kasmId: string): Promise<void> {
  const cmd = `sh -c 'w=websock; w=\${w}ify; for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null | grep -q "$w.*6901" && echo \${p#/proc/}; done | sort -n | tail -1 | xargs kill'`;
  const res = await world.w.h.call('exec_command_kasm', {
    kasm_id: kasmId,
    user_id: world.userId,
    exec_config: { cmd },
  });
  expect(res.json()).toMatchObject({ exit_code: 0 });
}

/** The audit events of `operation` on the session. */
export async function auditedOn(world: DesktopWorld, operation: string, kasmId: string) {
  const log = await world.w.h.call('get_audit_log', { operation });
  return (
    log.json().events as {
      channel: string;
      result: string;
      actor: { kind: string; name: string | null };
      target: { id: string } | null;
    }[]
  ).filter((e) => e.target?.id?.replaceAll('-', '') === kasmId);
}

/** Waits until the session's row has `status`. */
export const statusBecomes = (world: DesktopWorld, kasmId: string, status: string) =>
  waitFor(
    async () => {
      const rows = await world.w.h.db.kasm.findMany({ where: { status } });
      if (!rows.some((r) => r.id.replaceAll('-', '') === kasmId)) throw new Error(`not ${status}`);
    },
    LONG,
    250,
  );
