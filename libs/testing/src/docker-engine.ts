// What engine tests (*.engine.test.ts) need to reach the test run's Docker engine. The engine
// and images come from the Jest global setup (tools/jest/engine-global-setup.cjs).

/** Busybox plus Node serving PORT (8080): / is the workspace page, /env the environment, /headers the request's headers, WebSocket echo. */
export const TEST_WEB_IMAGE = 'platform-test/web:1';
/** Busybox only; its shell stays up and exits at once on SIGTERM. */
export const TEST_SHELL_IMAGE = 'platform-test/shell:1';
/** The newest Engine API the test engine (Docker 20.10) speaks. */
export const TEST_DOCKER_API_VERSION = 'v1.41';

/** The engine's address, `unix:///…/docker.sock` or `tcp://host:port`. */
export function testDockerHost(): string {
  const host = process.env.TEST_DOCKER_HOST;
  if (!host) {
    throw new Error(
      'TEST_DOCKER_HOST is not set: engine tests get it from the workspace-api Jest global setup, ' +
        'which needs a Docker engine (set DOCKER_HOST, or have dockerd on PATH and run as root)',
    );
  }
  return host;
}

export type TestDockerOptions =
  | { socketPath: string; version: string }
  | { protocol: 'http'; host: string; port: number; version: string };

/** dockerode constructor options for the test engine, pinned to the API version it speaks. */
export function testDockerOptions(): TestDockerOptions {
  const host = testDockerHost();
  if (host.startsWith('unix://')) {
    return { socketPath: host.slice('unix://'.length), version: TEST_DOCKER_API_VERSION };
  }
  const url = new URL(host.replace(/^tcp:/, 'http:'));
  return {
    protocol: 'http',
    host: url.hostname,
    port: Number(url.port || 2375),
    version: TEST_DOCKER_API_VERSION,
  };
}
