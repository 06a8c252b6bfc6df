import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { referenceProblem, REPO_ROOT } from '@platform/testing';
import { exportSettings } from './settings-export';
import { settingsJsonSchema } from './settings-file.schemas';

const EMPTY = {
  zones: [],
  agents: [],
  images: [],
  groups: [],
  users: [],
  mappings: [],
  stagingConfigs: [],
  ssoProviders: [],
};
/** Every `path.md` and `path.md#section` a text names. */
const referencesIn = (text: string) => text.match(/[\w./-]+\.md(?:#[\w-]+)?/g) ?? [];

/** The references of a text that do not resolve from `fromFile`'s folder. */
function unresolved(text: string, fromFile: string) {
  const references = referencesIn(text);
  expect(references.length).toBeGreaterThan(0);
  return references.flatMap((r) => {
    const problem = referenceProblem(fromFile, r);
    return problem ? [`${r}: ${problem}`] : [];
  });
}

// The generated texts are written anywhere: the paths they name are the repository's.
const FROM_ROOT = path.join(REPO_ROOT, '(generated)');

describe('where the settings texts send their readers', () => {
  it('the header of every export names a docs section that exists', () => {
    const header = exportSettings(EMPTY).split('\nversion:')[0];
    expect(unresolved(header, FROM_ROOT)).toEqual([]);
  });

  it('the JSON Schema, generated and committed, names a docs section that exists', async () => {
    const committed = await readFile(
      path.join(REPO_ROOT, 'examples/settings/settings.schema.json'),
      'utf8',
    );
    for (const description of [
      String(settingsJsonSchema().description),
      String((JSON.parse(committed) as { description: unknown }).description),
    ])
      expect(unresolved(description, FROM_ROOT)).toEqual([]);
  });

  it('the example settings file names a docs section that exists, relative to itself', async () => {
    const file = path.join(REPO_ROOT, 'examples/settings/settings.yaml');
    expect(unresolved(await readFile(file, 'utf8'), file)).toEqual([]);
  });
});
