export { extractEvents, MAX_DESCRIPTION_LENGTH, MessageRejectedError } from './extract';
export type { ExtractInput, ExtractResult, ExtractedEvent, IgnoredLine } from './extract';
export { MAX_TITLE_LENGTH } from './event-line';
export type { EventType } from './event-type';
