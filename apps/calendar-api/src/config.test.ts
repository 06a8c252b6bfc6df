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

  it('defaults to no proxy trusted, per-process throttling of 20 failures in 5 minutes, public webhooks only', () => {
    expect(loadConfig(base)).toMatchObject({
      TRUST_PROXY: 'false',
      REDIS_URL: '',
      RATE_LIMIT_KEY_PREFIX: 'calendar-api:',
      AUTH_FAILURE_LIMIT: 20,
      AUTH_FAILURE_ADDRESS_LIMIT: 200,
      AUTH_FAILURE_WINDOW_SECONDS: 300,
      OUTBOUND_ALLOW_PRIVATE: false,
      OUTBOUND_ALLOWLIST: '',
      OUTBOUND_MAX_REDIRECTS: 3,
    });
  });

  it('defaults to no notification target, both workers on, and feed UIDs @calendar-api', () => {
    expect(loadConfig(base)).toMatchObject({
      NOTIFY_WEBHOOKS: '',
      NOTIFY_DISPATCH: 'on',
      SLACK_INBOX_WORKER: 'on',
      SLACK_SIGNING_SECRET: '',
      CALENDAR_UID_DOMAIN: 'calendar-api',
      NOTIFY_MAX_ATTEMPTS: 8,
    });
  });

  it('reads webhook targets, worker switches and intervals', () => {
    expect(
      loadConfig({
        ...base,
        NOTIFY_WEBHOOKS: 'slack=https://hooks.slack.com/services/T/B/x',
        NOTIFY_DISPATCH: 'off',
        SLACK_INBOX_WORKER: 'off',
        NOTIFY_INTERVAL_MS: '250',
        SLACK_INBOX_INTERVAL_MS: '500',
      }),
    ).toMatchObject({
      NOTIFY_DISPATCH: 'off',
      SLACK_INBOX_WORKER: 'off',
      NOTIFY_INTERVAL_MS: 250,
      SLACK_INBOX_INTERVAL_MS: 500,
    });
  });

  it.each([
    [{ NOTIFY_WEBHOOKS: 'teams=https://x.example/h' }, /NOTIFY_WEBHOOKS: "teams" is not NAME=URL/],
    [{ NOTIFY_DISPATCH: 'yes' }, /NOTIFY_DISPATCH/],
    [{ SLACK_INBOX_WORKER: 'true' }, /SLACK_INBOX_WORKER/],
    [{ NOTIFY_INTERVAL_MS: '5' }, /NOTIFY_INTERVAL_MS/],
    [{ NOTIFY_MAX_ATTEMPTS: '0' }, /NOTIFY_MAX_ATTEMPTS/],
    [
      { NOTIFY_LEASE_MS: '10000' },
      /NOTIFY_LEASE_MS: must exceed NOTIFY_TIMEOUT_MS \+ DATABASE_TIMEOUT_MS/,
    ],
    [{ NOTIFY_BACKOFF_BASE_MS: '5000', NOTIFY_BACKOFF_MAX_MS: '1000' }, /NOTIFY_BACKOFF_MAX_MS/],
    [{ CALENDAR_UID_DOMAIN: 'not a domain' }, /CALENDAR_UID_DOMAIN/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY: "maybe" is not true, false/],
    [{ OUTBOUND_ALLOWLIST: '10.0.0.0/8,not a host' }, /OUTBOUND_ALLOWLIST: "not a host"/],
    [{ AUTH_FAILURE_LIMIT: '-1' }, /AUTH_FAILURE_LIMIT/],
    [{ REDIS_URL: 'http://cache:6379' }, /REDIS_URL/],
    [
      { NOTIFY_WEBHOOKS: 'slack=http://169.254.169.254/x' },
      /the URL of slack: 169\.254\.169\.254 is a link-local/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
