import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigSchema, configReferenceText } from './config';

const REFERENCE = path.resolve(__dirname, '../../../docs/configuration/calendar-api.md');

describe('the configuration reference', () => {
  it('is committed as docs/configuration/calendar-api.md exactly as `config reference` writes it', async () => {
    // On a mismatch: npm run calendar -- config reference docs/configuration/calendar-api.md
    expect(await readFile(REFERENCE, 'utf8')).toBe(configReferenceText());
  });

  it('says what every variable means', () => {
    const properties = ConfigSchema.properties as Record<string, { description?: string }>;
    const unexplained = Object.keys(properties).filter((name) => !properties[name].description);
    expect(unexplained).toEqual([]);
  });
});
