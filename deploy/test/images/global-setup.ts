import { BASE_IMAGES, COMPOSE_IMAGES, buildServiceImages } from './support/app-images';
import { startTestEngine } from './support/engine';
import { ensureBaseImage } from './support/standins';

// The image tests' engine: DOCKER_HOST when it answers, else a private dockerd (its keeper
// removes the daemon, its bridge, mounts and folder when the run ends in any way). Then the
// base images (pulled, or stand-ins built offline) and both services' images.

// tools/jest is the workspace's own tooling, no Nx project: every Jest setup records its failure
// the same way, for the end of .ci/run.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { recordingSetupFailure } = require('../../../tools/jest/summary-reporter.cjs') as {
  recordingSetupFailure(setup: () => Promise<void>): () => Promise<void>;
};

const log = (line: string) => process.stderr.write(`[deploy images] ${line}\n`);

async function setup(): Promise<void> {
  const started = Date.now();
  const engine = await startTestEngine();
  if (!engine)
    throw new Error(
      'no Docker engine: DOCKER_HOST does not answer and dockerd cannot start here (root and Debian docker.io needed)',
    );
  (globalThis as { __stopImageEngine?: () => Promise<void> }).__stopImageEngine = engine.stop;
  process.env.DOCKER_HOST = engine.host;
  log(`engine ${engine.host} (${engine.kind})`);
  try {
    for (const tag of [...BASE_IMAGES, ...COMPOSE_IMAGES]) {
      const at = Date.now();
      const { origin, why } = await ensureBaseImage(tag);
      const seconds = ((Date.now() - at) / 1000).toFixed(0);
      log(`${tag}: ${origin}${why ? ` — pull failed: ${why}` : ''} (${seconds} s)`);
    }
    await buildServiceImages(log);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  log(`setup took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export default recordingSetupFailure(setup);
