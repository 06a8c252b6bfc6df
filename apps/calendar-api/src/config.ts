import { Type, type Static } from '@sinclair/typebox';
import { ConfigError, parseEnv, serviceEnv } from '@platform/schemas';
import { parseChannelPeriods } from './messages/channel-periods';
import { isTimeZone } from './time/calendar-days';

export const ConfigSchema = Type.Object({
  ...serviceEnv({ port: 3002, schema: 'calendar' }),
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
      'Which requests need a bearer token: writes (default), all, or off (trusted network)',
  }),
});
export type Config = Static<typeof ConfigSchema>;

/** The one reader of the environment; fails with every problem at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseEnv(ConfigSchema, env);
  const problems: string[] = [];
  if (!isTimeZone(config.CALENDAR_TIMEZONE)) {
    problems.push(`  CALENDAR_TIMEZONE: "${config.CALENDAR_TIMEZONE}" is not an IANA time zone`);
  }
  try {
    parseChannelPeriods(config.CHANNEL_PERIODS);
  } catch (error) {
    problems.push(`  CHANNEL_PERIODS: ${(error as Error).message}`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return config;
}
