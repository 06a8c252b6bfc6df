#!/usr/bin/env node
// `npm run bench:logging`: what request logging costs. A hello route on the services' Fastify
// options (libs/http), one server per variant writing its log to a file, driven alternately with
// autocannon. On a shared machine the rate drifts with other work; the server's own CPU time per
// request (utime + stime from /proc, threads included) is the steadier figure. See bench/README.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundle } from './lib/bundle.mjs';
import { measure } from './lib/load.mjs';
import { BENCH_DIR, RESULTS_DIR, ROOT } from './lib/paths.mjs';
import { cpuSeconds, freePort, sleep } from './lib/processes.mjs';

const VARIANTS = [
  'off',
  'fastify-sync',
  'fastify-async',
  'one-line-sync',
  'one-line-async-unbuffered',
  'one-line-async-text',
  'one-line-async',
  'one-line-async-no-child',
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

/**
 * @param {string} lib the bundled http lib
 * @param {string} variant
 * @param {number} port
 */
async function start(lib, variant, port) {
  const file = path.join(RESULTS_DIR, 'logs', `logging-${variant}.log`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.openSync(file, 'w');
  const child = spawn(
    process.execPath,
    [path.join(BENCH_DIR, 'logging/hello-server.mjs'), lib, variant, String(port)],
    { stdio: ['ignore', out, 'inherit'], cwd: ROOT },
  );
  fs.closeSync(out);
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/hello`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(50);
  }
  return { child, file, url: `http://127.0.0.1:${port}` };
}

await bundle(path.join(ROOT, 'libs/http/src/index.ts'), 'http-lib');
const lib = path.join(RESULTS_DIR, '.build', 'http-lib.cjs');
/** @type {Record<string, Awaited<ReturnType<typeof start>>>} */
const servers = {};
for (const variant of VARIANTS) servers[variant] = await start(lib, variant, await freePort());
/** @type {Record<string, number[]>} */
const rates = Object.fromEntries(VARIANTS.map((v) => [v, []]));
/** @type {Record<string, number[]>} */
const cpu = Object.fromEntries(VARIANTS.map((v) => [v, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of VARIANTS) {
      const target = { url: servers[variant].url, path: '/hello' };
      await measure(target, { duration: 1, warmup: 0 });
      // Spawned: it answered /hello.
      const pid = /** @type {number} */ (servers[variant].child.pid);
      const before = cpuSeconds(pid);
      const m = await measure(target, { duration: DURATION_S, warmup: 0 });
      cpu[variant].push(((cpuSeconds(pid) - before) / m.count) * 1e6);
      rates[variant].push(m.rps);
    }
  }
} finally {
  for (const { child } of Object.values(servers)) child.kill('SIGTERM');
}
await sleep(500);
const median = (/** @type {number[]} */ xs) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const offCpu = median(cpu.off);
log(
  'variant                   req/s   CPU µs per request   over no logging   log bytes per request',
);
for (const variant of VARIANTS) {
  const rps = median(rates[variant]);
  const us = median(cpu[variant]);
  const bytes = fs.statSync(servers[variant].file).size;
  const requests = rates[variant].reduce((a, b) => a + b, 0) * (DURATION_S + 1);
  const over = variant === 'off' ? '—' : `+${(us - offCpu).toFixed(1)}`;
  log(
    `${variant.padEnd(24)} ${rps.toFixed(0).padStart(6)}   ${us.toFixed(1).padStart(18)}   ${over.padStart(15)}   ${(bytes / requests).toFixed(0).padStart(21)}`,
  );
}
