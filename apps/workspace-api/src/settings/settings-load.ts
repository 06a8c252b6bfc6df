import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { SettingsFileUnreadableError } from '../errors';
import { MAX_CONTENT_BYTES } from '../file-mappings';
import { emptyDesired, type DesiredSettings } from './settings-desired';
import type { SettingsProblem } from './settings-problems';
import type { FieldProblem } from '@platform/errors';
import { type EnginePolicy, tlsFileProblems } from '../engines';
import {
  engineAddressKey,
  engineAddressOf,
  normalizeSettings,
  type ContentFiles,
} from './settings-normalize';

export interface LoadedSettings {
  desired: DesiredSettings;
  /** Everything wrong with the file itself; the planner adds what the database cannot resolve. */
  problems: SettingsProblem[];
}

/** Every content_file the document names, wherever it is. */
function contentFilesNamed(value: Record<string, unknown>): string[] {
  const named = new Set<string>();
  for (const section of ['workspaces', 'groups', 'users']) {
    const items = Array.isArray(value[section]) ? (value[section] as unknown[]) : [];
    for (const item of items) {
      const mappings = (item as { file_mappings?: unknown } | null)?.file_mappings;
      for (const mapping of Array.isArray(mappings) ? mappings : []) {
        const file = (mapping as { content_file?: unknown } | null)?.content_file;
        if (typeof file === 'string') named.add(file);
      }
    }
  }
  return [...named];
}

/** What reading the TLS files of each agent that names some finds, by address. */
async function readTlsFiles(value: Record<string, unknown>, tlsDir: string) {
  const items = Array.isArray(value.agents) ? (value.agents as unknown[]) : [];
  const addresses = items
    .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
    .map((item) =>
      engineAddressOf(
        Object.fromEntries(
          ['docker_url', 'tls_ca_path', 'tls_cert_path', 'tls_key_path']
            .filter((key) => typeof item[key] === 'string')
            .map((key) => [key, item[key] as string]),
        ),
      ),
    );
  const checked = await Promise.all(
    addresses.map(async (a) => [engineAddressKey(a), await tlsFileProblems(a, tlsDir)] as const),
  );
  return new Map<string, FieldProblem[]>(checked);
}

// `..data/x` is inside (Kubernetes mounts ConfigMap files as links into such a folder); `../x` is not.
const isInside = (dir: string, file: string) => {
  const relative = path.relative(dir, file);
  const up = relative === '..' || relative.startsWith(`..${path.sep}`);
  return relative !== '' && !up && !path.isAbsolute(relative);
};

/** A script next to the settings file. It must stay inside that directory, also through symbolic links. */
async function readContentFile(
  dir: string,
  name: string,
): Promise<{ content: string } | { error: string }> {
  if (path.isAbsolute(name)) return { error: 'must be a path relative to the settings file' };
  const file = path.resolve(dir, name);
  if (!isInside(dir, file))
    return { error: `must stay inside ${dir}, the settings file's directory` };
  try {
    const real = await realpath(file);
    if (!isInside(await realpath(dir), real))
      return { error: `leads outside ${dir} through a symbolic link` };
    const info = await stat(real);
    if (!info.isFile()) return { error: `${file} is not a file` };
    if (info.size > MAX_CONTENT_BYTES)
      return {
        error: `${file} is ${info.size} bytes; at most ${MAX_CONTENT_BYTES} (5 MiB) are allowed`,
      };
    return { content: new TextDecoder('utf-8', { fatal: true }).decode(await readFile(real)) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') return { error: `there is no file ${file}` };
    if (error instanceof TypeError) return { error: `${file} is not UTF-8 text` };
    return { error: `cannot read ${file}: ${(error as Error).message}` };
  }
}

/** Reads and checks a settings file and the content files it names; nothing here touches the database. */
export async function loadSettingsFile(
  filePath: string,
  policy: EnginePolicy,
): Promise<LoadedSettings> {
  const text = await readFile(filePath, 'utf8').catch((error: Error) => {
    throw new SettingsFileUnreadableError(filePath, error.message);
  });
  // Loaded here, not at the top: see export() in settings.service.
  const { parseSettingsText } = await import('./settings-parse');
  const parsed = parseSettingsText(text);
  const { value } = parsed;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { desired: emptyDesired(), problems: parsed.problems };
  }
  const document = value as Record<string, unknown>;
  const dir = path.dirname(path.resolve(filePath));
  const names = contentFilesNamed(document);
  const read = await Promise.all(
    names.map(async (name) => [name, await readContentFile(dir, name)] as const),
  );
  const contentFiles: ContentFiles = new Map(read);
  const tlsProblems = await readTlsFiles(document, policy.tlsDir);
  const normalized = normalizeSettings(document, parsed.locate, contentFiles, {
    policy,
    tlsProblems,
  });
  return { desired: normalized.desired, problems: [...parsed.problems, ...normalized.problems] };
}
