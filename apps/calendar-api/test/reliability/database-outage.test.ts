import { describeDatabaseOutage, OUTAGE_DATABASE_ENV } from '@platform/testing';
import { buildApp } from '../../src/app';
import { migrateDatabase } from '../../src/migrations';
import { testConfig } from '../harness';

describeDatabaseOutage({
  service: 'calendar-api',
  start: async (url) => {
    const config = testConfig(url, { CALENDAR_AUTH: 'off', ...OUTAGE_DATABASE_ENV });
    await migrateDatabase(config);
    return buildApp(config);
  },
  write: { path: '/api/calendar/add_event', body: (key) => ({ date: '2025-03-03', title: key }) },
  success: '201',
  storedKeys: 'SELECT title AS key FROM calendar.calendar_event',
});
