import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { settingsJsonSchemaText } from './settings-file.schemas';
import { parseSettingsText } from './settings-parse';

const EXAMPLES = path.resolve(__dirname, '../../../../examples/settings');

describe('the settings JSON Schema', () => {
  it('is committed as examples/settings/settings.schema.json exactly as `settings schema` writes it', async () => {
    const committed = await readFile(path.join(EXAMPLES, 'settings.schema.json'), 'utf8');
    // On a mismatch: npm run workspace -- settings schema examples/settings/settings.schema.json
    expect(committed).toBe(settingsJsonSchemaText());
  });

  it('accepts the example file, whose every setting it describes', async () => {
    const text = await readFile(path.join(EXAMPLES, 'settings.yaml'), 'utf8');
    expect(parseSettingsText(text).problems).toEqual([]);
  });
});
