// @ts-check
// Where the slow-to-make caches live: the workspace images' Debian rootfs tars, the private test
// engine's data-root and the deploy tests' stand-in rootfs. They sit outside the clone, so a
// fresh clone (CI's, a second worktree) reuses them; every entry is named by a hash of its inputs
// or guarded by its own lock, so clones with different inputs never take each other's.
const os = require('node:os');
const path = require('node:path');

/** PLATFORM_CACHE_DIR, else /var/cache/workspace-platform as root, else the user's cache folder. */
function cacheRoot(env = process.env) {
  if (env.PLATFORM_CACHE_DIR) return path.resolve(env.PLATFORM_CACHE_DIR);
  if (process.getuid?.() === 0) return '/var/cache/workspace-platform';
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'workspace-platform');
}

/** @param {string} name one cache's folder under the root */
const cacheDir = (name) => path.join(cacheRoot(), name);

module.exports = { cacheDir, cacheRoot };
