import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@platform/testing';
import { VALID_PASSWORD } from '../factories';
import { createGroup, createMember } from '../group-factories';
import {
  closeDesktopWorld,
  createDesktopWorld,
  DESKTOP_CANVAS,
  launchDesktop,
  LONG,
  openClient,
  waitForDesktop,
  type DesktopWorld,
  type LaunchedDesktop,
} from './desktop-fixture';
import { auditedOn, openPanelWithF8 } from './session-page-fixture';
import { desktopExec, POINTER } from './x-display';

// Sharing and watching the real Desktop in Chromium, two browser contexts at a time, both ways a
// desktop is reached (Kasm-like, and over the socket hop): the owner's page and a viewer's on a
// view link, then an administrator's watch from the console. What the
// viewer or the watcher does must change nothing in the desktop (the X pointer, the screen's
// size, the clipboard, the terminal's files), until the owner gives control in the panel.
jest.setTimeout(10 * LONG);

const standing = (tab: Page) => tab.locator('#standing');

/** Clicks, types a line into where the terminal is, pastes from the panel, and resizes the window. */
async function tryEverything(tab: Page, file: string): Promise<void> {
  const box = await tab.locator(DESKTOP_CANVAS).boundingBox();
  if (!box) throw new Error('no canvas');
  await tab.mouse.click(box.x + 300, box.y + 300);
  await tab.mouse.click(box.x + 200, box.y + 150);
  await tab.keyboard.type(`echo typed > ${file}`, { delay: 15 });
  await tab.keyboard.press('Enter');
  await tab.keyboard.press('Control+V');
  await openPanelWithF8(tab);
  await tab.locator('#clipboard').fill('pasted by a viewer');
  await tab.getByRole('button', { name: 'Send to the desktop' }).click();
  await tab.keyboard.press('Escape');
  await tab.setViewportSize({ width: 900, height: 600 });
  await tab.mouse.click(box.x + 100, box.y + 100);
}

describe.each([
  ['Kasm-like: HTTPS on 6901 with Basic, no hop', false],
  ['over the socket hop', true],
])('sharing and watching the Desktop in Chromium, %s', (_name, hop) => {
  let root: string;
  let world: DesktopWorld;
  let owner: LaunchedDesktop;
  let exec: (cmd: string) => Promise<string>;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'watch-'));
    world = await createDesktopWorld(
      ['Desktop'],
      hop ? { SESSION_SOCKETS_DIR: path.join(root, 's') } : {},
    );
    owner = await launchDesktop(world, 'Desktop');
    await waitForDesktop(owner.tab);
    exec = await desktopExec(world.w, owner.kasmId);
    const allowed = await world.w.h.call('update_image', {
      target_image: { image_id: world.imageIds.Desktop, allow_anonymous_join: true },
    });
    expect(allowed.statusCode).toBe(200);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await closeDesktopWorld(world);
    await rm(root, { recursive: true, force: true });
  });

  /** What the desktop shows of input: the pointer and screen size, the clipboard, the file. */
  const desktopState = async (file: string) => [
    await exec(POINTER),
    await exec('xclip -o -selection clipboard 2>/dev/null'),
    await exec(`test -e ${file} && echo there || echo absent`),
  ];

  it('a view link’s viewer changes nothing by clicks, typing, pasting or resizing; control given in the panel moves the pointer with no reconnect', async () => {
    const link = await world.w.h.call('create_kasm_share_link', {
      kasm_id: owner.kasmId,
      role: 'view',
    });
    expect(link.statusCode).toBe(200);
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const viewer = await openClient(world, owner.kasmId, link.json().url, context);
    await waitForDesktop(viewer.tab);
    await standing(viewer.tab).filter({ hasText: 'View only' }).waitFor({ timeout: LONG });

    await exec('printf before | xclip -i -selection clipboard >/dev/null 2>&1');
    const before = await desktopState('/tmp/viewer');
    expect(before.slice(1)).toEqual(['before', 'absent']);
    await tryEverything(viewer.tab, '/tmp/viewer');
    // Nothing is to happen, so nothing can be waited for: the owner's stream carries on (its
    // page stays connected) and the desktop is read again after a while.
    await owner.tab.waitForTimeout(3000);
    expect(await desktopState('/tmp/viewer')).toEqual(before);
    expect(await owner.tab.evaluate('document.body.dataset.connection')).toBe('connected');

    await openPanelWithF8(owner.tab);
    await owner.tab.getByRole('button', { name: 'Give control' }).click({ timeout: LONG });
    await owner.tab.keyboard.press('Escape');
    const box = await viewer.tab.locator(DESKTOP_CANVAS).boundingBox();
    if (!box) throw new Error('no canvas');
    const fromOwner = await exec(POINTER);
    let spot = 0;
    await waitFor(
      async () => {
        spot = (spot + 1) % 2;
        await viewer.tab.mouse.click(box.x + 150 + 200 * spot, box.y + 250);
        const now = await exec(POINTER);
        if (now === fromOwner) throw new Error(`the pointer is still at ${now}`);
      },
      LONG,
      500,
    );
    expect(viewer.stream.isClosed()).toBe(false);
  });

  it('an administrator’s watch: Watch in the console, the owner’s page says so, the watcher’s input changes nothing, the audit has its start and end', async () => {
    const support = await createGroup(world.w.h, {
      name: 'Support',
      permissions: ['sessions.view', 'sessions.watch'],
    });
    await createMember(world.w.h, support.group_id, 'sam');
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const console = await context.newPage();
    await console.goto(`${world.origin}/admin/sessions`);
    await console.getByLabel('Username').fill('sam');
    await console.getByLabel('Password').fill(VALID_PASSWORD);
    await console.getByRole('button', { name: 'Sign in' }).click();
    await console.waitForURL(`${world.origin}/admin/sessions`);
    await console.getByText('anonymous (control)').waitFor();

    await console.getByRole('button', { name: 'Watch' }).click();
    await console.waitForURL(/\/kasm\/[0-9a-f]{32}\/$/, { timeout: LONG });
    await waitForDesktop(console);
    await standing(console).filter({ hasText: 'You are watching' }).waitFor({ timeout: LONG });
    await standing(owner.tab).filter({ hasText: 'sam is watching' }).waitFor({ timeout: LONG });

    const listing = await context.newPage();
    await listing.goto(`${world.origin}/admin/sessions`);
    await listing.getByText('sam (watching)').waitFor();

    const before = await desktopState('/tmp/watcher');
    await tryEverything(console, '/tmp/watcher');
    await owner.tab.waitForTimeout(3000);
    expect(await desktopState('/tmp/watcher')).toEqual(before);

    await console.close();
    await standing(owner.tab).waitFor({ state: 'hidden', timeout: LONG });
    const ended = await waitFor(async () => {
      const events = await auditedOn(world, 'watch_ended', owner.kasmId);
      if (events.length === 0) throw new Error('no watch_ended yet');
      return events;
    }, LONG);
    expect(ended[0]).toMatchObject({ actor: { name: 'sam' } });
    expect(await auditedOn(world, 'watch_started', owner.kasmId)).toHaveLength(1);
    const log = await world.w.h.call('get_audit_log', { operation: 'watch_ended' });
    const after = log.json().events[0].after as Record<string, unknown>;
    expect(after).toMatchObject({ watcher: 'sam', owner: 'ada' });
    expect(typeof after.duration_seconds).toBe('number');
  });

  it('keeps the watch from the owner’s page and panel where the workspace turns the notice off', async () => {
    const off = await world.w.h.call('update_image', {
      target_image: { image_id: world.imageIds.Desktop, watch_notice: false },
    });
    expect(off.statusCode).toBe(200);
    const watcher = await contexts[1].newPage();
    await watcher.goto(`${world.origin}/admin/sessions`);
    await watcher.getByRole('button', { name: 'Watch' }).click();
    await watcher.waitForURL(/\/kasm\/[0-9a-f]{32}\/$/, { timeout: LONG });
    await waitForDesktop(watcher);
    await waitFor(async () => {
      const all = await world.w.h.call('get_kasm_participants', { kasm_id: owner.kasmId });
      const roles = all.json().participants.map((p: { role: string }) => p.role);
      if (!roles.includes('watch')) throw new Error(`no watcher yet: ${roles}`);
    }, LONG);
    const base = `/kasm/${owner.kasmId}/_session`;
    expect(await owner.tab.evaluate(`fetch('${base}/standing').then((r) => r.json())`)).toEqual({
      role: 'owner',
      watchers: [],
    });
    const panel = (await owner.tab.evaluate(
      `fetch('${base}/participants').then((r) => r.json())`,
    )) as { participants: { role: string }[] };
    expect(panel.participants.map((p) => p.role)).toEqual(['control']);
    expect(await standing(owner.tab).isHidden()).toBe(true);
    await watcher.close();
  });
});
