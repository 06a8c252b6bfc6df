// The infrastructure plugins' public face: what the app and other features may use of them.
export {
  authThrottleOptions,
  CONNECT_TOKEN_THROTTLE,
  LOGIN_THROTTLE,
  UNFAMILIAR_LOGIN_THROTTLE,
} from './auth-throttle';
export { authPlugin } from './auth.plugin';
