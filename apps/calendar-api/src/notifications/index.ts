// The notifications feature's public face: what other features may use of it.
export { backoffDelayMs } from './delivery-policy';
export { createDispatcher } from './dispatcher';
export {
  notificationContent,
  type NotificationContent,
  type NoticeEvent,
} from './notification-content';
export { notificationsRoutes } from './notifications.routes';
export { createNotificationsService } from './notifications.service';
export { createOutbox, type Outbox } from './outbox';
export { createOutboxMetrics } from './outbox-metrics';
export { createScheduler } from './scheduler';
