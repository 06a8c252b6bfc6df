#!/usr/bin/env node
// `npm run bench:clipboard`: the clipboard between a person's computer and the Desktop workspace
// through workspace-api's session page, both ways, as p50 and p95 over BENCH_CLIPS copies each,
// beside a baseline in the same run: an RFB client straight on the container's websockify (its
// published port, Basic credentials) sending and receiving RFB's own cut text. A real Docker
// engine (DOCKER_HOST, or a private dockerd). See README.md.
import { createRequire } from 'node:module';
import { launchBrowser } from './lib/desktop-browser.mjs';
import {
  desktopPassword,
  execDetached,
  execOutput,
  publishedPort,
  sessionContainer,
} from './lib/desktop-engine.mjs';
import { startPlatform } from './lib/desktop-platform.mjs';
import { percentile } from './lib/load.mjs';
import { sleep } from './lib/processes.mjs';
import { connectRfb } from './lib/rfb.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');

const CLIPS = Number(process.env.BENCH_CLIPS ?? 30);
/** A clipboard limit (bytes) makes the proxy read both sides of the stream (its guarded path). */
const LIMIT = process.env.BENCH_CLIPBOARD_LIMIT ? Number(process.env.BENCH_CLIPBOARD_LIMIT) : null;
const TARGET_P95_MS = 500;
const WAIT_MS = 10_000;
/** The desktop's clipboard is read this often by the watcher: the resolution of "in the desktop". */
const WATCH_MS = 20;
const WATCH_LOG = '/tmp/clipboard-watch';
const UNICODE = 'Grüße 🚀 日本語';
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

// In the desktop, as a paste would: xclip reads the CLIPBOARD every WATCH_MS and each new text is
// written with the time it was first read (the machine's clock, shared with the page's).
const WATCHER = `last=; while :; do t=$(xclip -o -selection clipboard 2>/dev/null); \
if [ "$t" != "$last" ]; then printf '%s %s\\n' "$(date +%s%3N)" "$t" >> ${WATCH_LOG}; last=$t; fi; \
sleep ${WATCH_MS / 1000}; done`;

/**
 * When the watcher first read `text` in the desktop's clipboard (ms since the epoch); a text that
 * came altered (Unicode lost to Latin-1, say) fails the run.
 * @param {string} host @param {string} id @param {string} text
 */
async function seenInDesktop(host, id, text) {
  const marker = text.split(' ').slice(0, 2).join(' ');
  const until = Date.now() + WAIT_MS;
  while (Date.now() < until) {
    const lines = await execOutput(host, id, `cat ${WATCH_LOG}`);
    const seen = new RegExp(`(\\d{13}) (${marker} .*)$`, 'm').exec(lines);
    if (seen && seen[2] !== text) throw new Error(`"${text}" reached the desktop as "${seen[2]}"`);
    if (seen) return Number(seen[1]);
    await sleep(100);
  }
  throw new Error(`"${text}" never reached the desktop's clipboard`);
}

/** Copies `text` in the desktop; answers the time just before (the container's clock). */
/** @param {string} host @param {string} id @param {string} text */
async function copyInDesktop(host, id, text) {
  const out = await execOutput(
    host,
    id,
    `date +%s%3N; printf '%s' '${text}' | xclip -i -selection clipboard >/dev/null 2>&1`,
  );
  const at = /(\d{13})/.exec(out);
  if (!at) throw new Error(`no time from the desktop: ${out}`);
  return Number(at[1]);
}

/**
 * In the page: reads the person's clipboard every 5 ms until it holds `text`; answers when.
 * @param {{ text: string, waitMs: number }} wanted
 */
function pageClipboardHolds({ text, waitMs }) {
  const { navigator } = /** @type {any} */ (globalThis);
  const until = Date.now() + waitMs;
  return new Promise((resolve, reject) => {
    const look = () =>
      navigator.clipboard.readText().then((/** @type {string} */ held) => {
        if (held === text) return resolve(Date.now());
        if (Date.now() > until) return reject(new Error(`not on the page's clipboard: ${text}`));
        setTimeout(look, 5);
      }, reject);
    look();
  });
}

/**
 * In the page: the person copies `text` on their computer and comes back to the page (a focus
 * event: what the page listens for); answers when they copied.
 * @param {string} text
 */
async function copyOnComputer(text) {
  const page = /** @type {any} */ (globalThis);
  const at = Date.now();
  await page.navigator.clipboard.writeText(text);
  page.dispatchEvent(new page.FocusEvent('focus'));
  return at;
}

/** @param {number[]} values */
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0 };
}

async function main() {
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  /** @type {import('./lib/desktop-platform.mjs').Platform | undefined} */
  let platform;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  try {
    log('Workspace image: Desktop');
    await ensureWorkspaceImages(engine.host, { only: ['desktop'], log: (l) => log(`  ${l}`) });
    platform = await startPlatform(engine, {
      name: 'workspace-api-clipboard',
      friendlyName: 'Desktop',
    });
    if (LIMIT !== null)
      await platform.call('update_image', {
        target_image: { image_id: platform.imageId, max_clipboard_bytes: LIMIT },
      });
    log(LIMIT === null ? 'Stream: unread (no limit)' : `Stream: guarded (${LIMIT} bytes at most)`);
    const { kasmId, cookie } = await platform.launch();
    const container = await sessionContainer(engine.host, kasmId);
    const { host } = engine;

    browser = await launchBrowser();
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: platform.sessionsOrigin,
    });
    const [name, value] = cookie.split('=');
    await context.addCookies([
      { name, value, domain: '127.0.0.1', path: `/kasm/${kasmId}/`, httpOnly: true },
    ]);
    const page = await context.newPage();
    const session = `${platform.sessionsOrigin}/kasm/${kasmId}/`;
    // Chromium aborts loads (noVNC's modules among them) while the engine adds a container's
    // interface, and the page never starts then: it is loaded again, as a person would.
    for (let attempt = 1; ; attempt++) {
      await page.goto(session).catch(() => undefined);
      const connected = page.locator('body[data-connection="connected"]');
      const ok = await connected.waitFor({ timeout: 30_000 }).then(
        () => true,
        () => false,
      );
      if (ok) break;
      if (attempt === 4) throw new Error('the session page did not connect in 4 loads');
    }

    const basic = Buffer.from(`kasm_user:${desktopPassword(container.Config.Env)}`).toString(
      'base64',
    );
    const direct = await connectRfb(`wss://127.0.0.1:${publishedPort(container)}/websockify`, {
      authorization: `Basic ${basic}`,
    });
    await execDetached(host, container.Id, WATCHER);

    log(`Up: ${CLIPS} copies on the computer (page) and straight to websockify, taking turns`);
    /** @type {{ page: number[], direct: number[] }} */
    const up = { page: [], direct: [] };
    for (let i = 0; i < CLIPS; i++) {
      const text = `up ${i} ${UNICODE}`;
      const copied = await page.evaluate(copyOnComputer, text);
      up.page.push((await seenInDesktop(host, container.Id, text)) - copied);
      const sent = Date.now();
      direct.cutText(`direct ${i} Grüße`);
      up.direct.push((await seenInDesktop(host, container.Id, `direct ${i} Grüße`)) - sent);
    }

    log(`Down: ${CLIPS} copies in the desktop (xclip), read on the page and by the RFB client`);
    /** @type {{ page: number[], direct: number[] }} */
    const down = { page: [], direct: [] };
    for (let i = 0; i < CLIPS; i++) {
      const text = `down ${i} ${UNICODE}`;
      const onPage = page.evaluate(pageClipboardHolds, { text, waitMs: WAIT_MS });
      const byClient = (async () => {
        for (;;) if ((await direct.nextCutText()).startsWith(`down ${i} `)) return Date.now();
      })();
      const copied = await copyInDesktop(host, container.Id, text);
      down.page.push((await onPage) - copied);
      down.direct.push((await byClient) - copied);
    }
    direct.close();

    const ms = (/** @type {number} */ v) => `${v.toFixed(0)} ms`;
    /** @param {string} label @param {number[]} values @param {string} target */
    const row = (label, values, target) => {
      const s = stats(values);
      return `| ${label} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} | ${target} |`;
    };
    const lines = [
      `| clipboard (${CLIPS} copies each way) | p50 | p95 | max | target |`,
      '|---|---:|---:|---:|---|',
      row('service: computer → desktop (page, extended clipboard, UTF-8)', up.page, 'p95 ≤ 500 ms'),
      row('baseline: ClientCutText straight to websockify → desktop', up.direct, ''),
      row(
        'service: desktop → computer (page, extended clipboard, UTF-8)',
        down.page,
        'p95 ≤ 500 ms',
      ),
      row('baseline: desktop → ServerCutText straight from websockify', down.direct, ''),
    ];
    log(`\nEach copy up (ms), service: ${up.page.join(' ')}`);
    log(`Each copy down (ms), service: ${down.page.join(' ')}`);
    log(`\n${lines.join('\n')}`);
    const worst = Math.max(stats(up.page).p95, stats(down.page).p95);
    process.exitCode = worst <= TARGET_P95_MS ? 0 : 1;
    await platform.destroy(kasmId);
  } finally {
    await browser?.close();
    await platform?.stop();
    await engine.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
