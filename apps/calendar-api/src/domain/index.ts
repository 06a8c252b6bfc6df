// The pure rules several features share: what they may use of them.
export {
  type Day,
  dayFromParts,
  formatDay,
  mondayForAnchor,
  nearestTo,
  noonUtc,
  parseIsoDay,
  partsOfDay,
} from './calendar-date';
export { addDays, dateInZone, fromDbDate, isTimeZone, toDbDate } from './calendar-days';
export { parseChannelPeriods } from './channel-periods';
export { dueDigestDay, dueReminderDays } from './schedule';
export { parseWebhookTargets, type WebhookFormat, type WebhookTarget } from './webhook-targets';
