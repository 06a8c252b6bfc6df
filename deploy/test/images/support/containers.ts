import { docker, inspect, waitFor } from './docker';

interface ContainerState {
  State: { Running: boolean; ExitCode: number; Health?: { Status: string } };
}

export const report = (line: string) => process.stderr.write(`[deploy images] ${line}\n`);

export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

export const state = async (container: string) => (await inspect<ContainerState>(container)).State;

/** Resolves once the container's own HEALTHCHECK reports healthy; fails if it stops first. */
export const waitHealthy = (container: string) =>
  waitFor(`${container} turning healthy`, async () => {
    const { Running, Health, ExitCode } = await state(container);
    if (!Running) throw new Error(`${container} stopped (exit ${ExitCode}) before turning healthy`);
    return Health?.Status === 'healthy' ? true : undefined;
  });

/** Resolves with the exit code once the container has stopped. */
export const waitExited = (container: string) =>
  waitFor(`${container} exiting`, async () => {
    const { Running, ExitCode } = await state(container);
    return Running ? undefined : ExitCode;
  });

/** The status of GET url once it answers at all. */
export const waitAnswer = (url: string) =>
  waitFor(`${url} answering`, () =>
    // A request docker-proxy accepted before the server listened may never be answered.
    fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status,
      () => undefined,
    ),
  );

/** The host address docker-proxy published a container port on. */
export async function publishedAddress(container: string, port: number): Promise<string> {
  const line = (await docker(['port', container, `${port}/tcp`])).split('\n')[0];
  return `http://${line.trim()}`;
}

export const removeContainers = (...names: string[]) =>
  docker(['rm', '--force', '--volumes', ...names]).catch(() => undefined);
