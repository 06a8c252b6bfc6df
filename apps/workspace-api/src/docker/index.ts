// The Docker engine: one client per agent's address, behind the engines module's Engine
// interface. Only the composition roots (app.ts, cli.ts) use it: it loads the Docker client,
// which the engines face keeps out of the commands that never talk to an engine.
export { createEngines } from './engines';
export { openEngines } from './docker.module';
