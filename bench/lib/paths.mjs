import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.join(BENCH_DIR, '..');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');
/** BENCH_APPS_ROOT: measure the builds of another checkout (e.g. a worktree of the previous commit). */
export const APPS_ROOT = process.env.BENCH_APPS_ROOT
  ? path.resolve(process.env.BENCH_APPS_ROOT)
  : ROOT;
export const distOf = (/** @type {string} */ app) => path.join(APPS_ROOT, 'apps', app, 'dist');
