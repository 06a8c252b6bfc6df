import { ROOT, SERVICES, type Service } from '../../support/repo';
import { docker } from './docker';

/** The tag the image tests build and the Compose stack runs (its IMAGE_TAG). */
export const IMAGE_TAG = 'deploy-test';

export const imageOf = (service: Service) => `workspace-platform/${service.name}:${IMAGE_TAG}`;

/** The base images the Dockerfile starts from. */
export const BASE_IMAGES = ['node:20-bookworm-slim'] as const;
/** The images the Compose file runs as they are. */
export const COMPOSE_IMAGES = ['postgres:15'] as const;

/**
 * Where each service's build stage stays tagged between runs: the test engine keeps `platform-test/`
 * images when it clears itself, so the next run's classic builder finds the stage's `npm ci` layer
 * in its cache (Docker keys each layer by its instruction and files) instead of installing again.
 */
const buildStageOf = (service: Service) => `platform-test/deploy-build-stage:${service.name}`;

/**
 * `docker build` of the Dockerfile, unchanged, for each service (APP) from the repository root:
 * first its build stage (tagged to stay cached), then the image, which reuses that stage.
 * Host network: the private engine's bridge has no NAT, and npm install must reach the registry.
 */
export async function buildServiceImages(log: (line: string) => void): Promise<void> {
  for (const service of SERVICES) {
    const started = Date.now();
    const build = (...args: string[]) =>
      docker(['build', '--network=host', '--build-arg', `APP=${service.name}`, ...args, '.'], {
        cwd: ROOT,
        timeoutMs: 15 * 60_000,
      });
    await build('--target', 'build', '-t', buildStageOf(service));
    await build('-t', imageOf(service));
    log(`built ${imageOf(service)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}
