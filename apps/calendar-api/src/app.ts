import type { FastifyInstance } from 'fastify';
import { createServiceApp, serviceFoundation, type ServiceAppOverrides } from '@platform/http';
import { backgroundRounds, createRegistry, metrics } from '@platform/metrics';
import { createOutboundFetch, createOutboundPolicy } from '@platform/outbound';
import { authThrottlePlugin } from '@platform/rate-limit';
import { requestSpans, startTracing } from '@platform/tracing';
import { publicBaseUrl } from '@platform/schemas';
import { createSlackEventsService, createSlackInbox, slackEventsRoutes } from './chat';
import type { Config } from './config';
import { openDatabase, toDatabaseError, type Database } from './db';
import {
  createEventQueriesService,
  createEventsService,
  eventQueriesRoutes,
  eventsRoutes,
  eventTitlesRoutes,
} from './events';
import {
  createFeedAddressesService,
  createFeedService,
  FEED_SECRET_THROTTLE,
  feedAddressesRoutes,
  feedRoutes,
} from './feed';
import { createMessagesService, messagesRoutes } from './messages';
import { parseWebhookTargets } from './domain';
import {
  createDispatcher,
  createNotificationsService,
  createOutbox,
  createOutboxMetrics,
  createScheduler,
  notificationsRoutes,
} from './notifications';
import { authPlugin, BEARER_THROTTLE } from './plugins';
import { API_PREFIX, SECURITY_SCHEMES } from './api';
import { createTokensService } from './tokens';
import { calendarPageRoutes } from './web';
import { type Workers, workersPlugin } from './workers';

export interface AppOverrides extends ServiceAppOverrides {
  db?: Database;
  /** The clock behind "today" and "tomorrow" (tests fix it). */
  now?: () => Date;
}

export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = createServiceApp(config, overrides, {
    // Titles (up to 200 characters) are path parameters; Fastify's default stops at 100.
    routerOptions: { maxParamLength: 1000 },
  });

  const db = overrides.db ?? openDatabase(config);
  const now = overrides.now ?? (() => new Date());
  const targets = parseWebhookTargets(config.NOTIFY_WEBHOOKS);
  const outbox = createOutbox({ db, targets });
  // Webhook URLs come from configuration, but may point anywhere: the policy still applies.
  const outbound = createOutboundFetch({
    policy: createOutboundPolicy({
      allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
      allowlist: config.OUTBOUND_ALLOWLIST,
    }),
    maxRedirects: config.OUTBOUND_MAX_REDIRECTS,
  });
  const tokens = createTokensService({ db, now });
  const events = createEventsService({ db, outbox, zone: config.CALENDAR_TIMEZONE });
  const queries = createEventQueriesService({ db, config, now });
  const messages = createMessagesService({ db, config, now, outbox });
  const notifications = createNotificationsService({ db });
  const feed = createFeedService({ events: queries, config });
  const feedAddresses = createFeedAddressesService({ db });
  const registry = createRegistry();
  const rounds = backgroundRounds(registry);
  const workers: Workers = {
    dispatcher: createDispatcher({
      db,
      config,
      targets,
      fetch: outbound,
      log: app.log.child({ worker: 'dispatcher' }),
      observe: {
        attempt: createOutboxMetrics({ registry, db, log: app.log }),
        rounds: rounds('notification-dispatcher'),
      },
    }),
    slackInbox: createSlackInbox({
      db,
      config,
      messages,
      log: app.log.child({ worker: 'slack-inbox' }),
      rounds: rounds('slack-inbox'),
    }),
    scheduler: createScheduler({
      db,
      config,
      targets,
      queries,
      outbox,
      now,
      log: app.log.child({ worker: 'scheduler' }),
      rounds: rounds('scheduler'),
      onEnqueued: () => workers.dispatcher.wake(),
    }),
  };
  const slack = createSlackEventsService({ db, onRecorded: () => workers.slackInbox.wake() });

  // Before every route: its spans wrap their handlers.
  await app.register(requestSpans, { tracing: startTracing(config, app.log) });
  await app.register(metrics, { registry, config });
  await app.register(serviceFoundation, {
    mapError: toDatabaseError,
    database: db,
    docs: {
      title: 'calendar-api',
      description: 'Turns weekly-plan chat messages into calendar events and serves them.',
      version: '0.1.0',
      securitySchemes: SECURITY_SCHEMES,
    },
  });
  const authFailures = {
    limit: config.AUTH_FAILURE_LIMIT,
    addressLimit: config.AUTH_FAILURE_ADDRESS_LIMIT,
    windowSeconds: config.AUTH_FAILURE_WINDOW_SECONDS,
  };
  await app.register(authThrottlePlugin, {
    redisUrl: config.REDIS_URL,
    keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
    rules: {
      [BEARER_THROTTLE]: { ...authFailures, what: 'failed bearer tokens' },
      [FEED_SECRET_THROTTLE]: { ...authFailures, what: 'wrong feed addresses' },
    },
  });
  await app.register(workersPlugin, {
    workers,
    enabled: [
      ...(config.NOTIFY_DISPATCH === 'on' ? (['dispatcher'] as const) : []),
      ...(config.SLACK_INBOX_WORKER === 'on' ? (['slackInbox'] as const) : []),
      ...(config.SCHEDULER_WORKER === 'on' ? (['scheduler'] as const) : []),
    ],
  });
  await app.register(calendarPageRoutes, { config });

  await app.register(
    async (api) => {
      await api.register(authPlugin, { tokens, mode: config.CALENDAR_AUTH });
      await api.register(messagesRoutes, { messages });
      await api.register(eventsRoutes, { events });
      await api.register(eventTitlesRoutes, { events });
      await api.register(eventQueriesRoutes, { queries });
      await api.register(feedRoutes, { feed, addresses: feedAddresses });
      await api.register(feedAddressesRoutes, {
        addresses: feedAddresses,
        baseUrl: publicBaseUrl(config),
      });
      await api.register(notificationsRoutes, { notifications });
      await api.register(slackEventsRoutes, { slack, signingSecret: config.SLACK_SIGNING_SECRET });
    },
    { prefix: API_PREFIX },
  );

  return app;
}
