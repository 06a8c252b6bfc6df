import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  cookieOptions,
  formCookieName,
  publicProtocol,
  sessionCookieName,
  ssoCookieName,
} from '../domain';
import type { OidcPending, SsoService } from '../sso';
import { NEXT_PAGE } from './pages';
import { samlRoutes, startSaml } from './sso-saml.routes';
import { originOf, PENDING_SECONDS, ProviderName } from './sso-request';

function pendingOf(request: FastifyRequest): OidcPending | null {
  const raw = request.cookies[ssoCookieName(request)];
  if (!raw || raw.length > 2000) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as OidcPending;
    return typeof value.state === 'string' && typeof value.nonce === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Signing in through an identity provider: "Sign in with …" leaves for it (OpenID Connect,
 * code flow with PKCE, state and nonce kept in an HttpOnly cookie of this browser), the provider
 * sends the user back to the callback, and its back-channel logout ends the user's logins.
 */
export const ssoRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService }> = async (app, { sso }) => {
  const redirectUri = (request: FastifyRequest, name: string) =>
    `${publicProtocol(request)}://${request.host}/sign-in/sso/${name}/callback`;
  const clearPending = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(ssoCookieName(request), cookieOptions(request));

  app.get(
    '/sign-in/sso/:name',
    {
      schema: {
        hide: true,
        params: ProviderName,
        querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 500 })) }),
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const next =
        request.query.next && NEXT_PAGE.test(request.query.next) ? request.query.next : undefined;
      if (await sso.saml.offers(name)) return startSaml(sso, request, reply, name, next);
      const { url, pending } = await sso.startOidc(
        name,
        redirectUri(request, name),
        originOf(request),
        next,
      );
      const cookie = Buffer.from(JSON.stringify(pending)).toString('base64url');
      return reply
        .setCookie(ssoCookieName(request), cookie, cookieOptions(request, PENDING_SECONDS))
        .redirect(url.href, 303);
    },
  );

  app.get(
    '/sign-in/sso/:name/callback',
    {
      schema: {
        hide: true,
        params: ProviderName,
        querystring: Type.Record(Type.String(), Type.String()),
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const pending = pendingOf(request);
      clearPending(request, reply);
      const url = new URL(request.url, redirectUri(request, name));
      const login = await sso.finishOidc(name, pending, url, originOf(request));
      return reply
        .setCookie(sessionCookieName(request), login.token, cookieOptions(request))
        .clearCookie(formCookieName(request), cookieOptions(request))
        .redirect(pending?.next ?? '/', 303);
    },
  );

  await app.register(samlRoutes, { sso });

  // The provider's server calls this, not a browser: no cookie, no CSRF token, a signed token.
  app.post(
    '/sign-in/sso/:name/backchannel-logout',
    {
      schema: {
        hide: true,
        params: ProviderName,
        body: Type.Object({ logout_token: Type.String({ minLength: 1, maxLength: 16_384 }) }),
      },
    },
    async (request, reply) => {
      await sso.backchannelLogout(
        request.params.name,
        request.body.logout_token,
        originOf(request),
      );
      return reply.header('cache-control', 'no-store').code(200).send();
    },
  );
};
