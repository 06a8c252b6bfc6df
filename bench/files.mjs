#!/usr/bin/env node
// `npm run bench:files`: a 1 GiB upload into a session's ~/Uploads and download from its
// ~/Downloads through workspace-api, each beside a plain local HTTP PUT/GET of the same file in
// the same run and beside the engine alone (the same exec, fed and drained by this process); an
// upload cut at half and resumed (equal sha256); the service's RSS before, during (peak) and after. A real Docker engine (DOCKER_HOST, or a private dockerd). See README.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { startPlatform } from './lib/desktop-platform.mjs';
import { sessionContainer } from './lib/desktop-engine.mjs';
import { engineDownload, engineUpload } from './lib/engine-exec.mjs';
import { cpuSeconds, rssMiB } from './lib/processes.mjs';

const require = createRequire(import.meta.url);
const { SERVICES, buildApps } = require('../tools/services.cjs');
const { startTestEngine, engineRequest } = require('../tools/docker-engine.cjs');
const { ensureTestImages, TEST_WEB_IMAGE } = require('../tools/docker-test-images.cjs');

const MIB = 1024 ** 2;
const SIZE = Number(process.env.BENCH_FILE_MIB ?? 1024) * MIB;
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

/**
 * A file of `bytes` random bytes and its sha256.
 * @param {string} file
 * @param {number} bytes
 */
async function randomFile(file, bytes) {
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file);
  for (let done = 0; done < bytes; done += 4 * MIB) {
    const chunk = crypto.randomBytes(Math.min(4 * MIB, bytes - done));
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', () => r(undefined)));
  }
  await new Promise((r) => out.end(() => r(undefined)));
  return hash.digest('hex');
}

/**
 * A plain HTTP server: PUT writes the body to a file, GET streams it back. The baseline.
 * @param {string} file
 * @returns {Promise<http.Server>}
 */
function baselineServer(file) {
  const server = http.createServer((req, res) => {
    if (req.method === 'PUT') {
      pipeline(req, fs.createWriteStream(file)).then(
        () => res.end('ok'),
        () => res.destroy(),
      );
    } else {
      res.setHeader('content-length', fs.statSync(file).size);
      pipeline(fs.createReadStream(file), res).catch(() => undefined);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Sends `file` (from `start`, all of it or `cutAt` bytes then a cut) with `method` and `headers`.
 * @param {string} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {string} file
 * @returns {Promise<{ status: number, body: string, ms: number }>}
 */
function send(url, method, headers, file, start = 0, cutAt = Infinity) {
  const size = fs.statSync(file).size - start;
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, 'content-length': size } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - began }),
      );
    });
    req.on('error', (error) =>
      cutAt < Infinity ? resolve({ status: 0, body: '', ms: 0 }) : reject(error),
    );
    let sent = 0;
    const source = fs.createReadStream(file, { start });
    source.on('data', (chunk) => {
      sent += chunk.length;
      if (sent >= cutAt) {
        source.destroy();
        req.write(chunk, () => setTimeout(() => req.destroy(), 500));
      } else if (!req.write(chunk)) {
        source.pause();
        req.once('drain', () => source.resume());
      }
    });
    source.on('end', () => req.end());
  });
}

/**
 * GETs `url` and digests the body: its status, sha256 and time.
 * @param {string} url
 * @param {Record<string, string>} headers
 */
async function fetchDigest(url, headers = {}) {
  const began = performance.now();
  const res = await fetch(url, { headers });
  const hash = crypto.createHash('sha256');
  if (res.body) for await (const chunk of res.body) hash.update(chunk);
  return { status: res.status, sha256: hash.digest('hex'), ms: performance.now() - began };
}

async function main() {
  buildApps(SERVICES.map((s) => s.name));
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));
  /** @type {import('./lib/desktop-platform.mjs').Platform | undefined} */
  let platform;
  /** @type {http.Server | undefined} */
  let baseline;
  /** @type {NodeJS.Timeout | undefined} */
  let sampler;
  try {
    await ensureTestImages(engine.host);
    platform = await startPlatform(engine, {
      name: 'workspace-api-files',
      testImage: { image: TEST_WEB_IMAGE, cores: 1, memory: 512 * MIB },
    });
    const { kasmId, cookie } = await platform.launch();
    const root = `${platform.sessionsOrigin}/kasm/${kasmId}/_files`;
    const container = await sessionContainer(engine.host, kasmId);
    const inContainer = async (/** @type {string} */ cmd) => {
      const json = { 'content-type': 'application/json' };
      const exec = await engineRequest(engine.host, 'POST', `/containers/${container.Id}/exec`, {
        headers: json,
        body: JSON.stringify({ Cmd: ['/bin/sh', '-c', cmd], AttachStdout: true }),
      });
      await engineRequest(engine.host, 'POST', `/exec/${JSON.parse(exec.body).Id}/start`, {
        headers: json,
        body: JSON.stringify({ Detach: false }),
      });
    };

    log(`Writing a ${SIZE / MIB} MiB random file`);
    const file = path.join(dir, 'upload.bin');
    const digest = await randomFile(file, SIZE);
    baseline = await baselineServer(path.join(dir, 'baseline.bin'));
    const base = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (baseline.address()).port}/file`;
    const pid = platform.pid;
    const rss = { idle: rssMiB(pid), peak: 0 };
    sampler = setInterval(() => {
      // The server's last moments (a zombie has no VmRSS) are no sample.
      try {
        rss.peak = Math.max(rss.peak, rssMiB(pid));
      } catch {}
    }, 100);
    const start = async (/** @type {string} */ name) => {
      const res = await fetch(`${root}/uploads`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name, size: SIZE }),
      });
      return /** @type {{ upload_id: string }} */ (await res.json()).upload_id;
    };
    const patchHeaders = (/** @type {number} */ offset) => ({
      cookie,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': String(offset),
    });

    /**
     * The service's CPU time (user and system, ms) while `transfer` runs, beside what it returns.
     * @template T
     * @param {() => Promise<T>} transfer
     */
    const withCpu = async (transfer) => {
      const before = cpuSeconds(pid);
      const result = await transfer();
      return { result, cpuMs: (cpuSeconds(pid) - before) * 1000 };
    };

    /** @type {Record<'put' | 'up' | 'get' | 'down' | 'engineUp' | 'engineDown' | 'upCpu' | 'downCpu', number>[]} */
    const runs = [];
    for (let round = 0; round < 2; round++) {
      log(`Round ${round + 1}: upload and download, service, engine alone and baseline`);
      const put = await send(base, 'PUT', {}, file);
      const engineUp = await engineUpload(
        engine.host,
        container.Id,
        'mkdir -p "$HOME/Uploads" && cat > "$HOME/Uploads/engine-alone.bin"',
        file,
      );
      await inContainer('rm -f "$HOME/Uploads/engine-alone.bin"');
      const id = await start(`round-${round}.bin`);
      const { result: up, cpuMs: upCpu } = await withCpu(() =>
        send(`${root}/uploads/${id}`, 'PATCH', patchHeaders(0), file),
      );
      const answer = JSON.parse(up.body);
      if (up.status !== 200 || answer.file.sha256 !== digest)
        throw new Error(`upload: ${up.status} ${up.body}`);
      await inContainer(
        `mv "$HOME/Uploads/round-${round}.bin" "$HOME/Downloads/" 2>/dev/null || (mkdir -p "$HOME/Downloads" && mv "$HOME/Uploads/round-${round}.bin" "$HOME/Downloads/")`,
      );
      const get = await fetchDigest(base);
      const engineDown = await engineDownload(
        engine.host,
        container.Id,
        `cat "$HOME/Downloads/round-${round}.bin"`,
      );
      if (engineDown.bytes < SIZE) throw new Error(`engine alone: ${engineDown.bytes} bytes`);
      const { result: down, cpuMs: downCpu } = await withCpu(() =>
        fetchDigest(`${root}/downloads/round-${round}.bin`, { cookie }),
      );
      if (down.status !== 200 || down.sha256 !== digest)
        throw new Error(`download: ${down.status}`);
      await inContainer(`rm -f "$HOME/Downloads/round-${round}.bin"`);
      runs.push({
        put: put.ms,
        up: up.ms,
        get: get.ms,
        down: down.ms,
        engineUp,
        engineDown: engineDown.ms,
        upCpu,
        downCpu,
      });
      log(
        `  ms: PUT ${put.ms.toFixed(0)}, engine alone up ${engineUp.toFixed(0)}, PATCH ${up.ms.toFixed(0)}, GET ${get.ms.toFixed(0)}, engine alone down ${engineDown.ms.toFixed(0)}, download ${down.ms.toFixed(0)}; service CPU up ${upCpu.toFixed(0)}, down ${downCpu.toFixed(0)}`,
      );
    }

    log('An upload cut at half, then resumed');
    const id = await start('resumed.bin');
    await send(`${root}/uploads/${id}`, 'PATCH', patchHeaders(0), file, 0, SIZE / 2);
    const status = /** @type {{ offset: number }} */ (
      await (await fetch(`${root}/uploads/${id}`, { headers: { cookie } })).json()
    );
    const rest = await send(
      `${root}/uploads/${id}`,
      'PATCH',
      patchHeaders(status.offset),
      file,
      status.offset,
    );
    const resumed = JSON.parse(rest.body);
    clearInterval(sampler);
    const after = rssMiB(pid);

    const best = (/** @type {keyof (typeof runs)[number]} */ key) =>
      Math.min(...runs.map((r) => r[key]));
    const mibps = (/** @type {number} */ ms) => (SIZE / MIB / (ms / 1000)).toFixed(0);
    const upRatio = best('put') / best('up');
    const downRatio = best('get') / best('down');
    const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (a / b).toFixed(2);
    const perGiB = (/** @type {number} */ cpuMs) =>
      ((cpuMs / 1000) * (1024 / (SIZE / MIB))).toFixed(2);
    const lines = [
      `| transfer (${SIZE / MIB} MiB, best of ${runs.length}) | service | engine alone | plain local HTTP | ratio to plain | service / engine alone | service CPU per GiB | target |`,
      '|---|---:|---:|---:|---:|---:|---:|---|',
      `| upload (PATCH into ~/Uploads vs PUT to disk) | ${mibps(best('up'))} MiB/s | ${mibps(best('engineUp'))} MiB/s | ${mibps(best('put'))} MiB/s | ${upRatio.toFixed(2)} | ${ratio(best('engineUp'), best('up'))} | ${perGiB(best('upCpu'))} s | ≥ 0.8 |`,
      `| download (GET from ~/Downloads vs GET from disk) | ${mibps(best('down'))} MiB/s | ${mibps(best('engineDown'))} MiB/s | ${mibps(best('get'))} MiB/s | ${downRatio.toFixed(2)} | ${ratio(best('engineDown'), best('down'))} | ${perGiB(best('downCpu'))} s | ≥ 0.8 |`,
      `| resumed at ${(status.offset / MIB).toFixed(0)} MiB after a cut | sha256 ${resumed.file?.sha256 === digest ? 'equal' : 'DIFFERENT'} | | | | | | equal |`,
      `| service RSS: idle, peak during transfers, after | ${rss.idle.toFixed(0)} / ${rss.peak.toFixed(0)} / ${after.toFixed(0)} MiB | | | | | | flat |`,
    ];
    log(`\n${lines.join('\n')}`);
    process.exitCode =
      upRatio >= 0.8 && downRatio >= 0.8 && resumed.file?.sha256 === digest ? 0 : 1;
    await platform.destroy(kasmId);
  } finally {
    clearInterval(sampler);
    baseline?.close();
    await platform?.stop();
    await engine.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
