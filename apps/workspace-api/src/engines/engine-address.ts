import path from 'node:path';
import type { FieldProblem } from '@platform/errors';

/** An agent's engine address as stored ('' where unset). */
export interface EngineAddress {
  dockerUrl: string;
  tlsCaPath: string;
  tlsCertPath: string;
  tlsKeyPath: string;
}

/** What the operator allows agents to name; from the configuration, never from API callers. */
export interface EnginePolicy {
  /** Absolute socket paths a `unix://` address may name. */
  socketPaths: readonly string[];
  /** Plain `tcp://` without TLS: a lab setting only (ENGINE_ALLOW_INSECURE_TCP). */
  allowInsecureTcp: boolean;
  /** The folder TLS files must lie in (ENGINE_TLS_DIR): none outside it is ever read. */
  tlsDir: string;
}

export interface TlsPaths {
  caPath: string;
  certPath: string;
  keyPath: string;
}

/** Where and how to reach an engine once its address passed the policy. */
export type EngineTarget =
  | { kind: 'unix'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number; tls: TlsPaths | null };

export type EngineAddressCheck =
  { ok: true; target: EngineTarget | null } | { ok: false; problems: FieldProblem[] };

const TLS_FIELDS = [
  ['tls_ca_path', 'tlsCaPath'],
  ['tls_cert_path', 'tlsCertPath'],
  ['tls_key_path', 'tlsKeyPath'],
] as const;
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const TCP = /^tcp:\/\/([^/:?#@]+)(?::([0-9]{1,5}))?\/?$/;

/** Docker's own defaults: 2376 is its TLS port, 2375 its plain one. */
const TLS_PORT = 2376;
const PLAIN_PORT = 2375;

const problem = (field: string, message: string): FieldProblem => ({ field, message });

/** An absolute path written the one way path.normalize writes it (no `.`, `..`, `//`, trailing `/`). */
export const isCanonicalPath = (value: string) =>
  value.startsWith('/') &&
  value.length > 1 &&
  path.posix.normalize(value) === value &&
  !value.endsWith('/');

/** Whether `file` lies strictly inside `dir`, as written (links are followed when it is read). */
export const isInsideDir = (dir: string, file: string) => {
  const relative = path.posix.relative(dir, file);
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith('../') &&
    !path.posix.isAbsolute(relative)
  );
};

function tlsOf(
  address: EngineAddress,
  tlsDir: string,
): { problems: FieldProblem[]; tls: TlsPaths | null } {
  const given = TLS_FIELDS.filter(([, key]) => address[key] !== '');
  if (given.length === 0) return { problems: [], tls: null };
  const problems = TLS_FIELDS.flatMap(([field, key]) => {
    if (address[key] === '') {
      return [
        problem(
          field,
          field === 'tls_ca_path'
            ? 'is required with a client certificate: without the CA the engine cannot be verified'
            : 'is required: TLS needs the CA, the client certificate and its key together',
        ),
      ];
    }
    if (!isCanonicalPath(address[key])) {
      return [problem(field, 'must be an absolute path without ".", ".." or repeated slashes')];
    }
    return isInsideDir(tlsDir, address[key])
      ? []
      : [problem(field, `must lie inside ${tlsDir} (ENGINE_TLS_DIR)`)];
  });
  if (problems.length > 0) return { problems, tls: null };
  return {
    problems: [],
    tls: { caPath: address.tlsCaPath, certPath: address.tlsCertPath, keyPath: address.tlsKeyPath },
  };
}

/**
 * The accepted engine addresses: '' (none), `unix:///path` for a socket the operator allows, or
 * `tcp://host[:port]` with TLS (CA, client certificate and key, all three) unless the operator
 * turned on plain TCP for a lab. Problems name the field the caller sent.
 */
export function checkEngineAddress(
  address: EngineAddress,
  policy: EnginePolicy,
): EngineAddressCheck {
  const url = address.dockerUrl;
  const tls = tlsOf(address, policy.tlsDir);
  if (url === '') {
    const stray = TLS_FIELDS.filter(([, key]) => address[key] !== '');
    if (stray.length === 0) return { ok: true, target: null };
    return {
      ok: false,
      problems: stray.map(([field]) => problem(field, 'needs a tcp:// docker_url to apply to')),
    };
  }
  if (url.startsWith('unix://')) {
    const socketPath = url.slice('unix://'.length);
    const problems: FieldProblem[] = [];
    if (!isCanonicalPath(socketPath)) {
      problems.push(
        problem(
          'docker_url',
          'must be unix:///<absolute socket path> without ".", ".." or repeated slashes',
        ),
      );
    } else if (!policy.socketPaths.includes(socketPath)) {
      problems.push(
        problem(
          'docker_url',
          `names a socket this service does not allow; allowed: ${policy.socketPaths.join(', ') || 'none'} (ENGINE_SOCKET_PATHS)`,
        ),
      );
    }
    for (const [field, key] of TLS_FIELDS) {
      if (address[key] !== '') problems.push(problem(field, 'applies to tcp:// engines only'));
    }
    return problems.length > 0
      ? { ok: false, problems }
      : { ok: true, target: { kind: 'unix', socketPath } };
  }
  const tcp = TCP.exec(url);
  if (!tcp || !HOST.test(tcp[1])) {
    return {
      ok: false,
      problems: [
        problem(
          'docker_url',
          'must be "", unix:///<socket path> or tcp://<host>:<port> (https:// and ssh:// are not supported)',
        ),
      ],
    };
  }
  const port = tcp[2] === undefined ? undefined : Number(tcp[2]);
  if (port !== undefined && (port < 1 || port > 65535)) {
    return { ok: false, problems: [problem('docker_url', 'has a port outside 1-65535')] };
  }
  if (tls.problems.length > 0) return { ok: false, problems: tls.problems };
  if (!tls.tls && !policy.allowInsecureTcp) {
    return {
      ok: false,
      problems: [
        problem(
          'docker_url',
          'tcp:// needs TLS: give tls_ca_path, tls_cert_path and tls_key_path (plain TCP hands the engine, and so the host, to anyone on the network)',
        ),
      ],
    };
  }
  const target: EngineTarget = {
    kind: 'tcp',
    host: tcp[1],
    port: port ?? (tls.tls ? TLS_PORT : PLAIN_PORT),
    tls: tls.tls,
  };
  return { ok: true, target };
}

/** The operator's policy from the configuration; the local engine (DOCKER_HOST) is the operator's too. */
export function enginePolicy(config: {
  ENGINE_SOCKET_PATHS: string;
  ENGINE_ALLOW_INSECURE_TCP: boolean;
  ENGINE_TLS_DIR: string;
  DOCKER_HOST?: string;
}): EnginePolicy {
  const listed = config.ENGINE_SOCKET_PATHS.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const local = config.DOCKER_HOST?.startsWith('unix://')
    ? [config.DOCKER_HOST.slice('unix://'.length)]
    : [];
  return {
    socketPaths: [...new Set([...listed, ...local])],
    allowInsecureTcp: config.ENGINE_ALLOW_INSECURE_TCP,
    tlsDir: config.ENGINE_TLS_DIR,
  };
}

/** The host that a session's published port is reached on from this service. */
export function sessionHost(address: EngineAddress): string {
  const url = new URL(address.dockerUrl);
  return url.protocol === 'unix:' ? '127.0.0.1' : url.hostname;
}
