// The repository's test engine (tools/docker-engine.cjs): DOCKER_HOST when it answers, else a
// private dockerd whose keeper removes the daemon, its bridge, mounts and folder when stopped.
// tools/ is the workspace's own tooling, no Nx project: the engine tests' Jest setup uses this
// same module, and the image tests must share its cleanup rather than copy it.
// eslint-disable-next-line @nx/enforce-module-boundaries
const engine = require('../../../../tools/docker-engine.cjs') as {
  startTestEngine(): Promise<{ host: string; kind: string; stop(): Promise<void> } | null>;
};

export const { startTestEngine } = engine;
