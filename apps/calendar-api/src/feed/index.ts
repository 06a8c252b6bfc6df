// The feed feature's public face: what other features may use of it.
export { feedAddressesRoutes } from './feed-addresses.routes';
export {
  type NewFeedAddressBody,
  NewFeedAddressBodySchema,
  privateFeedUrl,
} from './feed-addresses.schemas';
export {
  createFeedAddressesService,
  type FeedAddressesService,
  type IssuedFeedAddress,
} from './feed-addresses.service';
export { FEED_SECRET_THROTTLE, feedRoutes } from './feed.routes';
export { createFeedService } from './feed.service';
export { FEED_USAGE, type FeedOptions, runFeedCommand } from './feed.cli';
