import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientKey, whileClientWaits } from '@platform/rate-limit';
import { normalizeUsername } from '../domain';
import { LoginFailedError, UserDisabledError, UserLockedError } from '../errors';
import { LOGIN_THROTTLE, UNFAMILIAR_LOGIN_THROTTLE } from '../plugins';
import type { Login, LoginsService } from './logins.service';

/** A login refused for its credentials or its account: a failure for the throttles. */
export const isRefusedLogin = (error: unknown) =>
  error instanceof LoginFailedError ||
  error instanceof UserLockedError ||
  error instanceof UserDisabledError;

/**
 * A password login, as `authenticate` and the web page run it. Throttled per (address,
 * username) below the account lock; from an address the user never signed in from, whose
 * failures do not count toward the lock, also per account across all such addresses, so that
 * guessing spread over many addresses stays bounded. Past that account budget such logins are
 * slowed, not refused: checked one at a time, SLOWED_LOGIN_INTERVAL_MS apart, so a right
 * password still signs in and a stranger can never lock the user out. A check still waiting
 * when its client goes is dropped.
 */
export function passwordLogin(
  app: FastifyInstance,
  logins: LoginsService,
  request: FastifyRequest,
  { username, password }: { username: string; password: string },
  channel: 'web' | 'api',
): Promise<Login> {
  const name = normalizeUsername(username);
  const address = clientKey(request.ip);
  const throttle = app.authThrottle;
  const client = whileClientWaits(request);
  const { signal } = client;
  return throttle
    .guard(
      LOGIN_THROTTLE,
      request,
      name,
      async () => {
        const familiar = await logins.isFamiliar(name, address);
        const attempt = () =>
          logins.authenticate(username, password, {
            address,
            familiar,
            signal,
            channel,
            clientIp: request.ip,
            userAgent: request.headers['user-agent'] ?? null,
          });
        if (familiar) return attempt();
        return throttle.guardAcrossAddresses(
          UNFAMILIAR_LOGIN_THROTTLE,
          request,
          name,
          attempt,
          isRefusedLogin,
          signal,
        );
      },
      isRefusedLogin,
    )
    .finally(client.done);
}
