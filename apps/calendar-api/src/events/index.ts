// The events feature's public face: what other features may use of it.
export { eventQueriesRoutes } from './event-queries.routes';
export { createEventQueriesService, type EventQueriesService } from './event-queries.service';
export { toEventResponse } from './event-response';
export {
  byDateThenId,
  eventColumns,
  type EventRow,
  eventRowFromSql,
} from './event-row';
export { eventTitlesRoutes } from './event-titles.routes';
export {
  createEventsRepository,
  type EventsRepository,
  type StoredMessage,
  type StoreResult,
} from './events.repository';
export { eventsRoutes } from './events.routes';
export { EventListSchema, type EventResponse, type NewEventBody } from './events.schemas';
export { createEventsService } from './events.service';
