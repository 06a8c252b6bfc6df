import type { RoundObserver } from '@platform/metrics';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db';
import { dueDigestDay, dueReminderDays, type WebhookTarget } from '../domain';
import { createWorkerLoop } from '@platform/worker-loop';
import {
  notificationContent,
  type NoticeEvent,
  type NotificationContent,
} from './notification-content';
import type { Outbox } from './outbox';
import { createScheduledNoticesRepository, type NoticeKind } from './scheduled-notices.repository';

interface Notice {
  occurrence: string;
  content: NotificationContent;
}

const typesOf = (list: string) =>
  new Set(
    list
      .split(',')
      .map((type) => type.trim())
      .filter(Boolean),
  );

interface SchedulerDeps {
  db: Database;
  config: Config;
  targets: WebhookTarget[];
  /** The events from `start` to `end` (YYYY-MM-DD, inclusive): the events' range read. */
  queries: { range(start: string, end: string): Promise<NoticeEvent[]> };
  outbox: Outbox;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Told of each round (the metrics). */
  rounds?: RoundObserver;
  onEnqueued: () => void;
}

/**
 * Puts due digests (the next day's events, at DIGEST_TIME) and reminders (REMINDER_MINUTES_BEFORE
 * an event) in the outbox, for the dispatcher to deliver. Whether one is due comes from the clock;
 * whether it was sent, from its claim in the database: once per target and occurrence, whatever
 * the number of replicas and restarts. Events are read with the range read every reader uses.
 */
export function createScheduler(deps: SchedulerDeps) {
  const { db, config, targets, queries, outbox, now, log, onEnqueued } = deps;
  const notices = createScheduledNoticesRepository(db);
  const names = targets.map((target) => target.name);
  const reminderTypes = typesOf(config.REMINDER_TYPES);
  const zone = config.CALENDAR_TIMEZONE;

  /** Claims the notices for the targets that have not had them, and enqueues them for those. */
  async function send(kind: NoticeKind, list: Notice[], sent: boolean): Promise<number> {
    if (list.length === 0) return 0;
    const byOccurrence = new Map(list.map((notice) => [notice.occurrence, notice.content]));
    const occurrences = [...byOccurrence.keys()];
    return db.transaction(async (tx) => {
      const claimed = await notices.claim(tx, { kind, occurrences, sent }, names);
      for (const occurrence of occurrences) {
        const to = claimed.filter((c) => c.occurrence === occurrence).map((c) => c.target);
        await outbox.enqueueTo(tx, to, byOccurrence.get(occurrence) as NotificationContent);
      }
      if (claimed.length > 0) log.info({ kind, claimed: claimed.length }, 'notices claimed');
      return claimed.length;
    });
  }

  async function digest(at: Date): Promise<number> {
    if (config.DIGEST_TIME === '') return 0;
    const day = dueDigestDay(at, zone, config.DIGEST_TIME);
    if (day === null) return 0;
    const content = notificationContent('digest', await queries.range(day, day));
    // Claimed even when empty: the day's digest is decided once, and one with nothing is not sent.
    return send('digest', [{ occurrence: day, content }], content.total > 0);
  }

  async function reminders(at: Date): Promise<number> {
    if (config.REMINDER_MINUTES_BEFORE === 0) return 0;
    const days = dueReminderDays(at, zone, config.REMINDER_MINUTES_BEFORE);
    if (days === null) return 0;
    const wanted = (event: NoticeEvent) =>
      reminderTypes.size === 0 || reminderTypes.has(event.type);
    const due = (await queries.range(days.start, days.end)).filter(wanted);
    const list = due.map((event) => ({
      occurrence: `${event.id}@${event.date}`,
      content: notificationContent('reminder', [event]),
    }));
    return send('reminder', list, true);
  }

  async function runOnce(): Promise<number> {
    if (names.length === 0) return 0;
    const at = now();
    const claimed = (await digest(at)) + (await reminders(at));
    if (claimed > 0) onEnqueued();
    return claimed;
  }

  const loop = createWorkerLoop({
    intervalMs: config.SCHEDULER_INTERVAL_MS,
    runOnce,
    log,
    rounds: deps.rounds,
  });
  return { runOnce, start: loop.start, stop: loop.stop, wake: loop.wake };
}
export type Scheduler = ReturnType<typeof createScheduler>;
