export { authThrottlePlugin } from './auth-throttle.plugin';
export type { AuthThrottleOptions, RequestThrottle } from './auth-throttle.plugin';
export { TooManyRequestsError } from './failure-throttle';
export type { ThrottleRule } from './failure-throttle';
export { clientKey } from './client-key';
export { ClientGoneError } from './spaced-lane';
export { whileClientWaits } from './client-presence';
