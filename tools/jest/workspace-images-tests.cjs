// Which test files use the workspace images: those of a test/workspace-images folder. The
// sequencer orders them, and workspace-images-ready.cjs makes them wait for the images.
const path = require('node:path');

/** @param {string} file a test file's path */
const needsWorkspaceImages = (file) => file.includes(`${path.sep}workspace-images${path.sep}`);

module.exports = { needsWorkspaceImages };
