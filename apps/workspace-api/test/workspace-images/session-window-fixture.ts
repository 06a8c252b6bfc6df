import type { Page } from 'playwright-core';
import type { DesktopWorld } from './desktop-fixture';

/** Runs `cmd` (with /bin/sh -c) in the session's desktop, DISPLAY=:1, through exec_command_kasm. */
export async function inDesktop(world: DesktopWorld, kasmId: string, cmd: string) {
  const res = await world.w.h.call('exec_command_kasm', {
    kasm_id: kasmId,
    user_id: world.userId,
    exec_config: { cmd: `export DISPLAY=:1; ${cmd}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { exit_code: number; output: string };
}

/** The desktop's X screen size, as `WxH` (xrandr's current size). */
export async function desktopSize(world: DesktopWorld, kasmId: string): Promise<string> {
  const { output } = await inDesktop(world, kasmId, 'xrandr --current');
  const size = /current (\d+) x (\d+)/.exec(output);
  if (!size) throw new Error(`xrandr said: ${output}`);
  return `${size[1]}x${size[2]}`;
}

/** The X CLIPBOARD's text in the desktop. */
export async function desktopClipboard(world: DesktopWorld, kasmId: string): Promise<string> {
  return (await inDesktop(world, kasmId, 'xclip -o -selection clipboard 2>/dev/null')).output;
}

/** Copies `text` in the desktop (xclip keeps serving it in the background). */
export async function setDesktopClipboard(world: DesktopWorld, kasmId: string, text: string) {
  const quoted = `'${text.replaceAll("'", `'\\''`)}'`;
  const res = await inDesktop(
    world,
    kasmId,
    `printf '%s' ${quoted} | xclip -i -selection clipboard >/dev/null 2>&1`,
  );
  expect(res.exit_code).toBe(0);
}

/** The session page's desktop area, as `WxH` in CSS pixels. */
export const screenSize = (tab: Page): Promise<string> =>
  tab.locator('#screen').evaluate((screen) => {
    const { width, height } = screen.getBoundingClientRect();
    return `${Math.floor(width)}x${Math.floor(height)}`;
  });

/** What the person's computer's clipboard holds, read by the page (permission granted). */
export const browserClipboard = (tab: Page): Promise<string> =>
  tab.evaluate(() => (globalThis as unknown as PageClipboard).navigator.clipboard.readText());

/** The page's clipboard, as these tests use it (the project's types have no DOM). */
export interface PageClipboard {
  navigator: {
    clipboard: { readText(): Promise<string>; writeText(text: string): Promise<void> };
  };
}

interface Canvas {
  width: number;
  height: number;
  getBoundingClientRect(): { width: number; height: number };
}

/** The canvas's own size (the desktop's framebuffer) and the size it is shown at. */
export const canvasSizes = (tab: Page, selector: string) =>
  tab.locator(selector).evaluate((element) => {
    const canvas = element as unknown as Canvas;
    const shown = canvas.getBoundingClientRect();
    return {
      size: `${canvas.width}x${canvas.height}`,
      shown: `${Math.round(shown.width)}x${Math.round(shown.height)}`,
    };
  });
