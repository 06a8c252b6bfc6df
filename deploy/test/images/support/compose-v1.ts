import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { ROOT } from '../../support/repo';
import { dockerHost, run } from './docker';

/**
 * docker-compose.yml as Debian's docker-compose 1.29 (v1) runs it. The file is written for
 * Compose v2; the one v2-only key it uses is the top-level `name`, which v1 rejects. The copy
 * drops it, and the runner passes the same name with `-p`; `--project-directory` resolves every
 * relative path (build context, bind mounts) from the repository root as v2 does. Nothing else
 * differs.
 */
export function composeV1(env: Record<string, string>) {
  const document = parseDocument(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
  const project = String(document.get('name'));
  document.delete('name');
  const dir = mkdtempSync(path.join(tmpdir(), 'compose-v1-'));
  const file = path.join(dir, 'docker-compose.v1.yml');
  writeFileSync(file, document.toString());
  const compose = (args: string[], timeoutMs = 5 * 60_000) =>
    run('docker-compose', ['-p', project, '--project-directory', ROOT, '-f', file, ...args], {
      env: { DOCKER_HOST: dockerHost(), ...env },
      timeoutMs,
    });
  return { project, compose, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
