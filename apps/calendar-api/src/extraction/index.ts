// The message parser's public face: what other features may use of it.
export { extractEvents, MessageRejectedError } from './extract';
export type { ExtractResult, ExtractedEvent, IgnoredLine } from './extract';
