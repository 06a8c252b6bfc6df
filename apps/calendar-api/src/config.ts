import { Type, type Static } from '@sinclair/typebox';
import { securityEnv, securityEnvProblems } from '@platform/http';
import { metricsEnv, metricsEnvProblems } from '@platform/metrics';
import { createOutboundPolicy, parseIp } from '@platform/outbound';
import { parseEnv, ConfigError, configReference, serviceEnv } from '@platform/schemas';
import { tracingEnv } from '@platform/tracing';
import { isTimeZone, parseChannelPeriods, parseWebhookTargets } from './domain';

const onOff = (description: string) =>
  Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on', description });
const ms = (defaultMs: number, minimum: number, description: string) =>
  Type.Integer({ minimum, default: defaultMs, description });

export const ConfigSchema = Type.Object({
  ...serviceEnv({ port: 3002, schema: 'calendar' }),
  ...securityEnv({ keyPrefix: 'calendar-api:' }),
  ...metricsEnv(),
  ...tracingEnv('calendar-api'),
  CALENDAR_TIMEZONE: Type.String({
    default: 'UTC',
    description: 'IANA zone in which "today", "tomorrow" and "this week" are computed',
  }),
  CHANNEL_PERIODS: Type.String({
    default: '',
    description: 'Period of each chat channel\'s events: "C123=CSA,C456=CSP"',
  }),
  CALENDAR_AUTH: Type.Union([Type.Literal('writes'), Type.Literal('all'), Type.Literal('off')], {
    default: 'writes',
    description:
      'Which requests need a bearer token: writes (default), all (calendar apps then subscribe through a secret feed address), or off (trusted network)',
  }),
  CALENDAR_UID_DOMAIN: Type.String({
    default: 'calendar-api',
    pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$',
    description: "Right-hand side of the feed's UIDs: event-<id>@<domain>",
  }),
  CALENDAR_NAME: Type.String({
    default: 'Class calendar',
    minLength: 1,
    maxLength: 200,
    description: "The feed's name in calendar apps",
  }),
  SLACK_SIGNING_SECRET: Type.String({
    default: '',
    description: 'Signing secret of the Slack app; empty refuses every /slack/events request',
  }),
  SLACK_INBOX_WORKER: onOff('Process stored Slack events in this process'),
  SLACK_INBOX_INTERVAL_MS: ms(1000, 10, 'Poll interval of the inbox worker when idle'),
  NOTIFY_WEBHOOKS: Type.String({
    default: '',
    description: 'Notification targets: "slack=https://hooks.slack.com/…,discord=https://…"',
  }),
  NOTIFY_DISPATCH: onOff('Deliver pending notifications from this process'),
  NOTIFY_INTERVAL_MS: ms(1000, 10, 'Poll interval of the dispatcher when idle'),
  NOTIFY_TIMEOUT_MS: ms(5000, 50, 'Longest wait for a webhook to answer'),
  NOTIFY_LEASE_MS: ms(60_000, 100, 'How long a claimed notification stays with its dispatcher'),
  NOTIFY_MAX_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 8,
    description: 'Deliveries of a notification tried before it is given up',
  }),
  NOTIFY_BACKOFF_BASE_MS: ms(2000, 1, 'Delay before the first retry; doubles per attempt'),
  NOTIFY_BACKOFF_MAX_MS: ms(600_000, 1, 'Longest delay between two attempts'),
  DIGEST_TIME: Type.String({
    default: '',
    pattern: '^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9])?$',
    description:
      "Local time (HH:MM in CALENDAR_TIMEZONE) at which each target gets the next day's events; empty: no digest",
  }),
  REMINDER_MINUTES_BEFORE: Type.Integer({
    minimum: 0,
    maximum: 10_080,
    default: 0,
    description:
      'Minutes before an event starts (00:00 of its day in CALENDAR_TIMEZONE) that each target is reminded of it; 0: no reminders',
  }),
  REMINDER_TYPES: Type.String({
    default: '',
    maxLength: 1000,
    description: 'Event types that get a reminder, "grade,check-in"; empty: every type',
  }),
  SCHEDULER_WORKER: onOff('Send due digests and reminders from this process'),
  SCHEDULER_INTERVAL_MS: ms(
    30_000,
    10,
    'How often the scheduler looks for due digests and reminders',
  ),
});
export type Config = Static<typeof ConfigSchema>;

/** A webhook at an address the outbound policy refuses would fail on every delivery: say so now. */
function refusedWebhookAddresses(config: Config): void {
  const policy = createOutboundPolicy({
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    allowlist: config.OUTBOUND_ALLOWLIST,
  });
  for (const target of parseWebhookTargets(config.NOTIFY_WEBHOOKS)) {
    const host = new URL(target.url).hostname.replace(/^\[(.*)\]$/, '$1');
    const refusal = parseIp(host) ? policy.refusal(host, host) : null;
    if (refusal) throw new Error(`the URL of ${target.name}: ${refusal}`);
  }
}

/** Rules between keys, and formats a JSON schema cannot express. */
function crossChecks(config: Config): string[] {
  const problems: string[] = [];
  const check = (key: string, run: () => void) => {
    try {
      run();
    } catch (error) {
      problems.push(`  ${key}: ${(error as Error).message}`);
    }
  };
  if (!isTimeZone(config.CALENDAR_TIMEZONE)) {
    problems.push(`  CALENDAR_TIMEZONE: "${config.CALENDAR_TIMEZONE}" is not an IANA time zone`);
  }
  check('CHANNEL_PERIODS', () => parseChannelPeriods(config.CHANNEL_PERIODS));
  check('NOTIFY_WEBHOOKS', () => parseWebhookTargets(config.NOTIFY_WEBHOOKS));
  problems.push(...securityEnvProblems(config), ...metricsEnvProblems(config));
  if (problems.length === 0) check('NOTIFY_WEBHOOKS', () => refusedWebhookAddresses(config));
  // A delivery (webhook timeout, then recording its outcome) must end before its lease does,
  // or another replica could claim and deliver it a second time.
  if (config.NOTIFY_LEASE_MS <= config.NOTIFY_TIMEOUT_MS + config.DATABASE_TIMEOUT_MS) {
    problems.push('  NOTIFY_LEASE_MS: must exceed NOTIFY_TIMEOUT_MS + DATABASE_TIMEOUT_MS');
  }
  if (config.NOTIFY_BACKOFF_MAX_MS < config.NOTIFY_BACKOFF_BASE_MS) {
    problems.push('  NOTIFY_BACKOFF_MAX_MS: must not be less than NOTIFY_BACKOFF_BASE_MS');
  }
  return problems;
}

/** The one reader of the environment; fails with every problem at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseEnv(ConfigSchema, env);
  const problems = crossChecks(config);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return config;
}

/** The configuration reference committed as docs/configuration/calendar-api.md. */
export const configReferenceText = () =>
  configReference(
    'calendar-api',
    ConfigSchema,
    'npm run calendar -- config reference docs/configuration/calendar-api.md',
  );
