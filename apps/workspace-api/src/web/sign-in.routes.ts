import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { clientKey, TooManyRequestsError } from '@platform/rate-limit';
import { cookieOptions, formCookieName, normalizeUsername, sessionCookieName } from '../domain';
import { LoginLinkInvalidError, PasswordChecksBusyError, SsoRequiredError } from '../errors';
import {
  isRefusedLogin,
  type Login,
  LOGIN_LINK_PREFIX,
  type LoginsService,
  passwordLogin,
} from '../logins';
import { LOGIN_THROTTLE } from '../plugins';
import { isCredentialsRefusal, isSsoRefusal, type SsoService } from '../sso';
import { linkPage, NEXT_PAGE, signInPage } from './pages';
import { originOf } from './sso-request';
import { sendPage } from './web-context';
import { assertCsrf, CSRF_FIELD, csrfTokenFor, formSecret } from './web-security';

/** Refusals the page shows on the form again, rather than as problem+json. */
const isRefusal = (error: unknown) =>
  isRefusedLogin(error) ||
  isSsoRefusal(error) ||
  error instanceof SsoRequiredError ||
  error instanceof TooManyRequestsError ||
  error instanceof PasswordChecksBusyError;

const Form = (fields: Parameters<typeof Type.Object>[0]) =>
  Type.Object({ [CSRF_FIELD]: Type.Optional(Type.String({ maxLength: 200 })), ...fields });

/**
 * Signing in (password or get_login link) and out; the login session lives in `session`. The
 * password form also signs in a directory's (LDAP) users: a name no local account has is
 * checked against the directories, under the same throttle as local passwords.
 */
export const signInRoutes: FastifyPluginAsyncTypebox<{
  logins: LoginsService;
  sso: SsoService;
}> = async (app, { logins, sso }) => {
  const startBrowserSession = (
    request: Parameters<typeof assertCsrf>[0],
    reply: Parameters<typeof formSecret>[1],
    login: Login,
    next?: string,
  ) =>
    reply
      .setCookie(sessionCookieName(request), login.token, cookieOptions(request))
      .clearCookie(formCookieName(request), cookieOptions(request))
      .redirect(next && NEXT_PAGE.test(next) ? next : '/', 303);

  app.post(
    '/sign-in',
    {
      schema: {
        hide: true,
        body: Form({
          username: Type.String({ maxLength: 255 }),
          password: Type.String({ maxLength: 1024 }),
          next: Type.Optional(Type.String({ maxLength: 500 })),
        }),
      },
    },
    async (request, reply) => {
      assertCsrf(request, request.cookies[formCookieName(request)]);
      const { username, password, next } = request.body as {
        username: string;
        password: string;
        next?: string;
      };
      try {
        const directory = await sso.directorySignIn(username, password, originOf(request));
        const login = directory
          ? await app.authThrottle.guard(
              LOGIN_THROTTLE,
              request,
              normalizeUsername(username),
              directory,
              isCredentialsRefusal,
            )
          : await passwordLogin(app, logins, request, { username, password }, 'web');
        return startBrowserSession(request, reply, login, next);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const refusal = error as Error & { statusCode: number; retryAfterSeconds?: number };
        if (refusal.retryAfterSeconds)
          reply.header('retry-after', Math.max(1, Math.ceil(refusal.retryAfterSeconds)));
        const page = signInPage({
          csrf: csrfTokenFor(formSecret(request, reply)),
          providers: request.ssoButtons,
          directories: request.ssoDirectories,
          next,
          username,
          error: refusal.message,
        });
        return sendPage(reply, page, refusal.statusCode);
      }
    },
  );

  // The link only shows a button: mail scanners and link previews that fetch it spend nothing.
  app.get(
    `${LOGIN_LINK_PREFIX}:token`,
    { schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) =>
      sendPage(
        reply,
        linkPage({ csrf: csrfTokenFor(formSecret(request, reply)), token: request.params.token }),
      ),
  );

  app.post(
    '/sign-in/link',
    { schema: { hide: true, body: Form({ token: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      assertCsrf(request, request.cookies[formCookieName(request)]);
      const { token } = request.body as { token: string };
      // Wrong links from one address count together: each one is a guess at a 256-bit token.
      const login = await app.authThrottle.guard(
        LOGIN_THROTTLE,
        request,
        'sign-in link',
        () => logins.redeemLink(token, clientKey(request.ip)),
        (error) => error instanceof LoginLinkInvalidError,
      );
      return startBrowserSession(request, reply, login);
    },
  );

  // The proof is bound to the login cookie, live or not: a stale page still signs out, and no
  // other site can sign anyone out (or clear a cookie) without it.
  app.post('/sign-out', { schema: { hide: true, body: Form({}) } }, async (request, reply) => {
    const token = request.cookies[sessionCookieName(request)];
    assertCsrf(request, token);
    if (token) await logins.endSession(token);
    return reply.clearCookie(sessionCookieName(request), cookieOptions(request)).redirect('/', 303);
  });
};
