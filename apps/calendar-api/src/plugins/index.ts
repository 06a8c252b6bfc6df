// The infrastructure plugins' public face: what the app and other features may use of them.
export { authPlugin, BEARER_THROTTLE } from './auth.plugin';
