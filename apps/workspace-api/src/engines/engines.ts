import { createDockerEngine } from './docker-engine';
import { EngineError, type Engine } from './engine';

/** An agent's engine address as stored. */
export interface EngineAddress {
  dockerUrl: string;
  tlsCaPath: string;
  tlsCertPath: string;
  tlsKeyPath: string;
}

/** The host that a session's published port is reached on from this service. */
export function sessionHost(address: EngineAddress): string {
  const url = new URL(address.dockerUrl);
  return url.protocol === 'unix:' ? '127.0.0.1' : url.hostname;
}

/** One engine client per address, made on first use. */
export function createEngines() {
  const clients = new Map<string, Engine>();
  return {
    forAgent(address: EngineAddress): Engine {
      if (!address.dockerUrl) throw new EngineError('The agent has no engine address (docker_url)');
      const key = [
        address.dockerUrl,
        address.tlsCaPath,
        address.tlsCertPath,
        address.tlsKeyPath,
      ].join('|');
      let engine = clients.get(key);
      if (!engine) {
        const tls = address.tlsCaPath
          ? {
              caPath: address.tlsCaPath,
              certPath: address.tlsCertPath,
              keyPath: address.tlsKeyPath,
            }
          : undefined;
        engine = createDockerEngine({ url: address.dockerUrl, tls });
        clients.set(key, engine);
      }
      return engine;
    },
  };
}
export type Engines = ReturnType<typeof createEngines>;
