import { describeDatabaseOutage, OUTAGE_DATABASE_ENV } from '@platform/testing';
import { buildApp } from '../../src/app';
import { createApiKeysRepository, createApiKeysService } from '../../src/api-keys';
import { openDatabase } from '../../src/db';
import { migrateDatabase } from '../../src/migrations';
import { testConfig } from '../harness';

let credentials: { 'api-key': string; 'api-key-secret': string };

describeDatabaseOutage({
  service: 'workspace-api',
  start: async (url) => {
    const config = testConfig(url, OUTAGE_DATABASE_ENV);
    await migrateDatabase(config);
    const database = openDatabase(config);
    const { apiKey, secret } = await createApiKeysService({
      keys: createApiKeysRepository(database),
    }).issue({ name: 'outage', permissions: ['global_admin'] });
    await database.close();
    credentials = { 'api-key': apiKey.key, 'api-key-secret': secret };
    return buildApp(config);
  },
  write: {
    path: '/api/public/create_group',
    headers: () => credentials,
    body: (key) => ({ target_group: { name: key } }),
  },
  success: '200',
  storedKeys: 'SELECT name AS key FROM workspace."group"',
});
