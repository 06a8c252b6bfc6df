import path from 'node:path';

/**
 * The page's own files: beside this module in the sources and beside the bundle in dist/ (the
 * build copies them), so `__dirname` finds both. `filesPanel` is the session files' panel.
 */
export function sessionPageAssets(filesPanel: string, dir = path.join(__dirname, 'assets')) {
  return {
    'session-page.js': path.join(dir, 'session-page.js'),
    'session-panel.js': path.join(dir, 'session-panel.js'),
    'session-keys.js': path.join(dir, 'session-keys.js'),
    'session-sharing.js': path.join(dir, 'session-sharing.js'),
    'session-page.css': path.join(dir, 'session-page.css'),
    'files-panel.js': filesPanel,
  };
}
