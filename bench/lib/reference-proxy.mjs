// @ts-check
// A reference proxy for the stream bench: nginx (Debian's package, when installed) in front of the
// same container, shaped as the session proxy is (a plain WebSocket from the client, TLS to the
// container's published port, the Basic credentials added, one worker as Node has one thread).
// It answers what a mature proxy written in C costs on this path, on this machine, in the same run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, sleep } from './processes.mjs';

/** The nginx binary, or null when Debian's nginx is not installed. */
export function nginxBinary() {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx'])
    if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** @param {string} dir @param {number} port @param {number} upstreamPort @param {string} basic */
function config(dir, port, upstreamPort, basic) {
  const temp = (/** @type {string} */ name) => `${name}_temp_path ${path.join(dir, name)};`;
  return `worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass https://127.0.0.1:${upstreamPort};
      proxy_ssl_verify off;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_set_header Authorization "${basic}";
      proxy_buffering off;
      proxy_buffer_size 64k;
      proxy_buffers 4 64k;
      proxy_busy_buffers_size 64k;
      proxy_read_timeout 1h;
    }
  }
}
`;
}

/**
 * Starts nginx in front of the container's published port; null when nginx is not installed.
 * @param {number} upstreamPort @param {string} basic the Authorization header's value
 * @returns {Promise<{ url: string, pids: () => number[], stop: () => Promise<void> } | null>}
 */
export async function startReferenceProxy(upstreamPort, basic) {
  const binary = nginxBinary();
  if (!binary) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, config(dir, port, upstreamPort, basic));
  const child = spawn(binary, ['-c', file, '-p', dir, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The master process and its one worker: the worker is the master's child.
  const pids = () => [
    child.pid ?? 0,
    ...fs
      .readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  ];
  for (let waited = 0; waited < 10_000 && !fs.existsSync(path.join(dir, 'nginx.pid')); waited += 50)
    await sleep(50);
  if (child.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
  return {
    url: `ws://127.0.0.1:${port}/websockify`,
    pids,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
