// The chat feature's public face: what other features may use of it.
export { slackEventsRoutes } from './slack-events.routes';
export { createSlackEventsService } from './slack-events.service';
export { createSlackInbox } from './slack-inbox.worker';
