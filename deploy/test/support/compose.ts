import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './repo';

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  ports?: string[];
  volumes?: string[];
  restart?: string;
}

export interface ComposeFile {
  name: string;
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

const VARIABLE =
  /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Compose's interpolation of one value: `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?message}`, `$$` for a literal dollar. Names used without a default go to `unset`.
 */
export function interpolate(
  value: string,
  env: Record<string, string | undefined>,
  unset: Set<string>,
): string {
  return value.replace(
    VARIABLE,
    (match, braced?: string, operator?: string, operand = '', bare?: string) => {
      if (match === '$$') return '$';
      const name = (braced ?? bare) as string;
      const current = env[name];
      const missing = operator?.startsWith(':') ? !current : current === undefined;
      if (!missing) return current as string;
      if (operator?.endsWith('-')) return operand;
      if (operator?.endsWith('?')) throw new Error(`${name}: ${operand}`);
      unset.add(name);
      return '';
    },
  );
}

function interpolateAll(
  node: unknown,
  env: Record<string, string | undefined>,
  unset: Set<string>,
): unknown {
  if (typeof node === 'string') return interpolate(node, env, unset);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, env, unset));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env, unset)]),
    );
  }
  return node;
}

/** docker-compose.yml as Compose reads it with the given environment (anchors and `<<` merged). */
export function loadCompose(env: Record<string, string | undefined> = {}) {
  const raw: unknown = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  });
  const unset = new Set<string>();
  const compose = interpolateAll(raw, env, unset) as ComposeFile;
  return { compose, unset };
}
