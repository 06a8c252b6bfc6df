#!/usr/bin/env node
// @ts-check
// `npm run workspaces:build`: builds the workspace images (desktop, development, browser) from
// Debian 12 packages into the Docker engine `npm start` uses (DOCKER_HOST, else the default
// socket), reusing cached rootfs and images, and prints each image's size.
//
//   npm run workspaces:build [-- desktop development]   only those images
const { ensureWorkspaceImages } = require('./workspace-images.cjs');
const { STAGES } = require('./recipes.cjs');

const LIMIT_MB = 1000;

/** The engine `npm start` registers as agent "local" (the rule of localEngineUrl in workspace-api). */
function engineHost(dockerHost = process.env.DOCKER_HOST) {
  return dockerHost && /^(unix|tcp):\/\//.test(dockerHost)
    ? dockerHost
    : 'unix:///var/run/docker.sock';
}

/** @param {string[]} args */
async function main(args) {
  const images = STAGES.filter((s) => s.image).map((s) => s.name);
  const unknown = args.filter((a) => !images.includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`unknown image(s): ${unknown.join(', ')} (known: ${images.join(', ')})\n`);
    return 2;
  }
  if (process.getuid?.() !== 0) {
    process.stderr.write('building the workspace images needs root (debootstrap and chroot)\n');
    return 1;
  }
  const host = engineHost();
  process.stdout.write(`Building workspace images into the Docker engine at ${host}\n`);
  const report = await ensureWorkspaceImages(host, {
    only: args.length > 0 ? args : undefined,
    log: (line) => process.stdout.write(`  ${line}\n`),
  });
  for (const r of report) {
    const over = r.sizeMb > LIMIT_MB ? `  (over ${LIMIT_MB} MB)` : '';
    process.stdout.write(
      `${r.image.padEnd(36)} ${r.action.padEnd(8)} ${String(r.sizeMb).padStart(5)} MB  ${(r.ms / 1000).toFixed(0)} s${over}\n`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
