import path from 'node:path';

/** The files panel's script, for the session page to serve: beside the bundle in dist/ too. */
export const FILES_PANEL_ASSET = path.join(__dirname, 'assets', 'files-panel.js');
