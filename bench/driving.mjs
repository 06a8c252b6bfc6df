#!/usr/bin/env node
// @ts-check
// `npm run bench:driving`: a program driving the Desktop workspace through workspace-api, the
// loop "type a line (send_kasm_input), take a frame (get_kasm_frame, a PNG, decoded), until the
// line's pixels changed", BENCH_LOOPS times (100); beside it in the same run, the same keys sent
// by an RFB client straight to the container's websockify (its published port, Basic
// credentials) until the server's next update: what the desktop itself takes. Sessions are
// reached on the socket hop (BENCH_HOP=tls: the container's TLS port, as Kasm's images are).
import { createRequire } from 'node:module';
import os from 'node:os';
import { PNG } from 'pngjs';
import { startPlatform } from './lib/desktop-platform.mjs';
import { desktopPassword, publishedPort, sessionContainer } from './lib/desktop-engine.mjs';
import { percentile } from './lib/load.mjs';
import { connectRfb } from './lib/rfb.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');

const LOOPS = Number(process.env.BENCH_LOOPS ?? 100);
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
/** The terminal's first line (workspace-apps opens it at +48+40, its prompt there). */
const LINE = { x: 50, y: 60, w: 800, h: 22 };

/** An RFB KeyEvent, down or up. @param {number} keysym @param {boolean} down */
const keyEvent = (keysym, down) => {
  const message = Buffer.alloc(8);
  message.writeUInt8(4, 0);
  message.writeUInt8(down ? 1 : 0, 1);
  message.writeUInt32BE(keysym, 4);
  return message;
};
/** What the service sends for ctrl+u then `text` (ASCII), as one piece. @param {string} text */
const lineKeys = (text) =>
  Buffer.concat([
    keyEvent(0xffe3, true),
    keyEvent(0x75, true),
    keyEvent(0x75, false),
    keyEvent(0xffe3, false),
    ...[...text].flatMap((c) => [
      keyEvent(c.charCodeAt(0), true),
      keyEvent(c.charCodeAt(0), false),
    ]),
  ]);

/** @param {PNG} a @param {PNG} b @param {typeof LINE} line where the line is in them */
function lineChanged(a, b, line) {
  for (let y = line.y; y < line.y + line.h; y++)
    for (let x = line.x; x < line.x + line.w; x++) {
      const i = (y * a.width + x) * 4;
      if (
        a.data[i] !== b.data[i] ||
        a.data[i + 1] !== b.data[i + 1] ||
        a.data[i + 2] !== b.data[i + 2]
      )
        return true;
    }
  return false;
}

/** @param {number[]} ms */
const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1],
  };
};

async function main() {
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  /** @type {import('./lib/desktop-platform.mjs').Platform | undefined} */
  let platform;
  let kasmId = '';
  try {
    await ensureWorkspaceImages(engine.host, { only: ['desktop'], log });
    platform = await startPlatform(engine, {
      name: 'workspace-api-driving',
      friendlyName: 'Desktop',
    });
    ({ kasmId } = await platform.launch());
    const p = platform;
    /** get_kasm_frame, decoded; `region` as the call's. @param {object} [region] */
    const frame = async (region) => {
      const res = await fetch(`${p.origin}/api/public/get_kasm_frame`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...p.credentials, kasm_id: kasmId, region }),
      });
      if (res.status !== 200) throw new Error(`get_kasm_frame: ${res.status} ${await res.text()}`);
      return PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    };
    // The desktop is up once its terminal is drawn (background #1d2128 at 200,150).
    for (let shown = await waitFrame(frame); ; shown = await frame()) {
      const i = (150 * shown.width + 200) * 4;
      if (shown.data[i] === 0x1d && shown.data[i + 1] === 0x21 && shown.data[i + 2] === 0x28) break;
      await new Promise((r) => setTimeout(r, 250));
    }

    /**
     * The program's loop: type a line, take frames until the line's pixels changed.
     * @param {string} label @param {{ x: number, y: number, width: number, height: number }} [region]
     */
    const serviceLoop = async (label, region) => {
      log(
        `Service, ${label}: ${LOOPS} loops of send_kasm_input, then get_kasm_frame until the line changed`,
      );
      const at = region ?? { x: 0, y: 0 };
      const line = { ...LINE, x: LINE.x - at.x, y: LINE.y - at.y };
      const times = [];
      let frames = 0;
      let before = await frame(region);
      for (let n = 0; n < LOOPS; n++) {
        const began = performance.now();
        await p.call('send_kasm_input', {
          kasm_id: kasmId,
          actions: [
            { type: 'key', keys: 'ctrl+u' },
            { type: 'type', text: `${label} line ${n}` },
          ],
        });
        for (;;) {
          const shown = await frame(region);
          frames += 1;
          if (lineChanged(before, shown, line)) {
            before = shown;
            break;
          }
        }
        times.push(performance.now() - began);
      }
      return { times, frames: frames / LOOPS };
    };
    const whole = await serviceLoop('whole screen');
    const part = await serviceLoop('the line only', {
      x: LINE.x,
      y: LINE.y,
      width: LINE.w,
      height: LINE.h,
    });

    log(`Baseline: ${LOOPS} loops of the same keys straight to the container's websockify`);
    const container = await sessionContainer(engine.host, kasmId);
    const basic = Buffer.from(`kasm_user:${desktopPassword(container.Config.Env)}`).toString(
      'base64',
    );
    const direct = await connectRfb(`wss://127.0.0.1:${publishedPort(container)}/websockify`, {
      authorization: `Basic ${basic}`,
    });
    direct.request(false);
    await direct.nextUpdate();
    const baseline = [];
    for (let n = 0; n < LOOPS; n++) {
      const began = performance.now();
      direct.send(lineKeys(`direct line ${n}`));
      direct.request(true);
      await direct.nextUpdate();
      baseline.push(performance.now() - began);
    }
    direct.close();

    const rows = [
      [`service, whole screen (${whole.frames.toFixed(2)} frames a loop)`, stats(whole.times)],
      [`service, the line only (${part.frames.toFixed(2)} frames a loop)`, stats(part.times)],
      ['baseline: the same keys straight to websockify, until its next update', stats(baseline)],
    ];
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    log(
      `\nhop ${process.env.BENCH_HOP === 'tls' ? 'tls' : 'socket'}, ${os.cpus().length} cores, load average ${load}`,
    );
    log('| loop (ms) | p50 | p95 | max |');
    log('|---|---|---|---|');
    for (const [name, s] of rows) {
      const r = /** @type {{ p50: number, p95: number, max: number }} */ (s);
      log(`| ${name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} |`);
    }
  } finally {
    if (kasmId) await platform?.destroy(kasmId).catch(() => undefined);
    await platform?.stop();
    await engine.stop();
  }
}

/** The first frame, tried until the session's display answers. @param {() => Promise<PNG>} frame */
async function waitFrame(frame) {
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      return await frame();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
