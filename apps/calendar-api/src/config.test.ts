import { loadConfig } from './config';

const base = { DATABASE_URL: 'postgres://localhost/calendar' };

describe('loadConfig', () => {
  it('defaults to UTC, no channel periods and tokens on writes', () => {
    expect(loadConfig(base)).toMatchObject({
      PORT: 3002,
      DATABASE_SCHEMA: 'calendar',
      CALENDAR_TIMEZONE: 'UTC',
      CHANNEL_PERIODS: '',
      CALENDAR_AUTH: 'writes',
    });
  });

  it('accepts an IANA zone and a channel map', () => {
    const config = loadConfig({
      ...base,
      CALENDAR_TIMEZONE: 'America/Chicago',
      CHANNEL_PERIODS: 'C1=CSA',
      CALENDAR_AUTH: 'off',
    });
    expect(config).toMatchObject({
      CALENDAR_TIMEZONE: 'America/Chicago',
      CHANNEL_PERIODS: 'C1=CSA',
      CALENDAR_AUTH: 'off',
    });
  });

  it('refuses an unknown time zone and a malformed channel map, naming both', () => {
    expect(() =>
      loadConfig({ ...base, CALENDAR_TIMEZONE: 'Moon/Base', CHANNEL_PERIODS: 'C1' }),
    ).toThrow(
      /CALENDAR_TIMEZONE: "Moon\/Base" is not an IANA time zone\n {2}CHANNEL_PERIODS: "C1" is not CHANNEL=PERIOD/,
    );
  });

  it('refuses an unknown CALENDAR_AUTH mode', () => {
    expect(() => loadConfig({ ...base, CALENDAR_AUTH: 'maybe' })).toThrow(/CALENDAR_AUTH/);
  });
});
