import type { AuthThrottleOptions } from '@platform/rate-limit';
import type { Config } from '../config';

/** Throttle rule names: wrong API credentials, and failed user logins. */
export const API_KEY_THROTTLE = 'api-key';
export const LOGIN_THROTTLE = 'login';
/** Failed logins of one account from addresses it never signed in from, counted together. */
export const UNFAMILIAR_LOGIN_THROTTLE = 'login-unfamiliar';
/** Connect tokens (a `kasm_url`'s `kasm_token`) that were wrong, spent or for no session. */
export const CONNECT_TOKEN_THROTTLE = 'connect-token';

/**
 * Failures counted per (client address, key id or username) under a per-address ceiling, in
 * Redis when REDIS_URL is set so every replica agrees.
 */
export function authThrottleOptions(config: Config): AuthThrottleOptions {
  return {
    redisUrl: config.REDIS_URL,
    keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
    rules: {
      [API_KEY_THROTTLE]: {
        limit: config.AUTH_FAILURE_LIMIT,
        addressLimit: config.AUTH_FAILURE_ADDRESS_LIMIT,
        windowSeconds: config.AUTH_FAILURE_WINDOW_SECONDS,
        what: 'failed API credentials',
      },
      // Each wrong connect token is a guess at a 256-bit secret, as a wrong API secret is.
      [CONNECT_TOKEN_THROTTLE]: {
        limit: config.AUTH_FAILURE_LIMIT,
        addressLimit: config.AUTH_FAILURE_ADDRESS_LIMIT,
        windowSeconds: config.AUTH_FAILURE_WINDOW_SECONDS,
        what: 'failed session links',
      },
      [LOGIN_THROTTLE]: {
        limit: config.LOGIN_FAILURE_LIMIT,
        addressLimit: config.AUTH_FAILURE_ADDRESS_LIMIT,
        windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
        what: 'failed logins',
      },
      // Instead of the account lock, which only failures from the user's own addresses reach.
      [UNFAMILIAR_LOGIN_THROTTLE]: {
        limit: config.MAX_FAILED_LOGINS,
        addressLimit: Infinity,
        windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
        what: 'failed logins',
        where: 'for this account from new addresses',
        // Past it, slowed rather than refused: a stranger must not keep the user out.
        pastLimitIntervalMs: config.SLOWED_LOGIN_INTERVAL_MS,
      },
    },
  };
}
