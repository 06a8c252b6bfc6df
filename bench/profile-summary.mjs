#!/usr/bin/env node
// Summarises a V8 CPU profile (`node --cpu-prof`, or BENCH_PROFILE=1 npm run bench): self time
// by package or source file, and the heaviest functions. Usage: node bench/profile-summary.mjs <file>
import fs from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
/** @typedef {import('node:inspector').Profiler.ProfileNode} ProfileNode */
/** @type {import('node:inspector').Profiler.Profile & { samples: number[], timeDeltas: number[] }} */
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
/** @type {Map<number, number>} */
const self = new Map();
const dt = profile.timeDeltas;
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

/** @param {string} url */
function where(url) {
  if (!url) return '(native/vm)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node core';
  return url.replace(/^file:\/\//, '').replace(/^.*\/(apps|bench|libs)\//, '$1/');
}

/** @type {Map<string, number>} */
const groups = new Map();
/** @type {Map<string, number>} */
const functions = new Map();
for (const [id, time] of self) {
  // Every sample names a node of the profile.
  const { callFrame } = /** @type {ProfileNode} */ (byId.get(id));
  const g = callFrame.url ? where(callFrame.url) : callFrame.functionName || '(program)';
  groups.set(g, (groups.get(g) ?? 0) + time);
  const f = `${callFrame.functionName || '(anonymous)'} ${where(callFrame.url)}:${callFrame.lineNumber + 1}`;
  functions.set(f, (functions.get(f) ?? 0) + time);
}
const print = (/** @type {string} */ title, /** @type {Map<string, number>} */ map) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    process.stdout.write(
      `${((100 * time) / total).toFixed(1).padStart(6)}%  ${(time / 1000).toFixed(0).padStart(7)} ms  ${name}\n`,
    );
  }
};
process.stdout.on('error', () => {});
process.stdout.write(`${file}: ${(total / 1e6).toFixed(2)} s sampled\n`);
print('Self time by package or file', groups);
print('Heaviest functions (self time)', functions);
