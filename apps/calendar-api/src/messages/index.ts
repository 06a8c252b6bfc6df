// The messages feature's public face: what other features may use of it.
export { MAX_MESSAGE_LENGTH } from './messages.schemas';
export { createMessagesService, type MessagesService } from './messages.service';
export { messagesRoutes } from './messages.routes';
