// The repository's test engine (tools/docker-engine.cjs): DOCKER_HOST when it answers, else a
// private dockerd whose keeper removes the daemon, its bridge, mounts and folder when stopped.
const engine = require('../../../../tools/docker-engine.cjs') as {
  startTestEngine(): Promise<{ host: string; kind: string; stop(): Promise<void> } | null>;
};

export const { startTestEngine } = engine;
