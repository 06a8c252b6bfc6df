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
import type { SamlLogoutMessage, SamlPending, SsoService } from '../sso';
import { originOf, PENDING_SECONDS, ProviderName } from './sso-request';

/** Responses with many groups and a certificate or two run to tens of kilobytes. */
const RESPONSE_LIMIT = 512 * 1024;

const acsUrl = (request: FastifyRequest, name: string) =>
  `${publicProtocol(request)}://${request.host}/sign-in/sso/${name}/acs`;

/**
 * The provider posts its Response from its own site: over TLS the cookie is SameSite=None (with
 * Secure and `__Host-`), or the browser would not send it with that cross-site POST. Over plain
 * HTTP (a lab) browsers refuse SameSite=None without Secure, so it stays Lax there.
 */
const pendingCookie = (request: FastifyRequest, maxAge?: number) => {
  const options = cookieOptions(request, maxAge);
  return options.secure ? { ...options, sameSite: 'none' as const } : options;
};

function pendingOf(request: FastifyRequest): SamlPending | null {
  const raw = request.cookies[ssoCookieName(request)];
  if (!raw || raw.length > 2000) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as SamlPending;
    return typeof value.requestId === 'string' && typeof value.provider === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** "Sign in with …" for a SAML provider: an AuthnRequest by redirect, its ID kept in a cookie. */
export async function startSaml(
  sso: SsoService,
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  next?: string,
) {
  const { url, pending } = await sso.saml.start(
    name,
    acsUrl(request, name),
    originOf(request),
    next,
  );
  const cookie = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return reply
    .setCookie(ssoCookieName(request), cookie, pendingCookie(request, PENDING_SECONDS))
    .redirect(url.href, 303);
}

/**
 * SAML 2.0's browser steps besides the start: the assertion consumer service the provider
 * posts its Response to (HTTP-POST binding), and this platform's SP metadata to import there.
 */
export const samlRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService }> = async (app, { sso }) => {
  // The provider's page posts here, not ours: no CSRF token; InResponseTo binds it to this browser.
  app.post(
    '/sign-in/sso/:name/acs',
    {
      bodyLimit: RESPONSE_LIMIT,
      schema: {
        hide: true,
        params: ProviderName,
        body: Type.Object({
          SAMLResponse: Type.String({ minLength: 1, maxLength: RESPONSE_LIMIT }),
          RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
        }),
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const pending = pendingOf(request);
      reply.clearCookie(ssoCookieName(request), pendingCookie(request));
      const login = await sso.saml.finish(
        name,
        pending,
        request.body.SAMLResponse,
        acsUrl(request, name),
        originOf(request),
      );
      return reply
        .setCookie(sessionCookieName(request), login.token, cookieOptions(request))
        .clearCookie(formCookieName(request), cookieOptions(request))
        .redirect(pending?.next ?? '/', 303);
    },
  );

  // Single logout: the provider's page sends the browser here with a signed LogoutRequest
  // (Redirect binding, the signature in the query) or posts it (POST binding, signed XML).
  const LogoutMessage = Type.Object({
    SAMLRequest: Type.String({ minLength: 1, maxLength: RESPONSE_LIMIT }),
    RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
    SigAlg: Type.Optional(Type.String({ maxLength: 200 })),
    Signature: Type.Optional(Type.String({ maxLength: 4096 })),
  });
  const logout = async (
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    message: SamlLogoutMessage,
    query: string | null,
  ) => {
    const url = await sso.saml.logout(
      name,
      message,
      query,
      acsUrl(request, name),
      originOf(request),
    );
    return reply.header('cache-control', 'no-store').redirect(url, 303);
  };
  app.get(
    '/sign-in/sso/:name/slo',
    { schema: { hide: true, params: ProviderName, querystring: LogoutMessage } },
    async (request, reply) =>
      logout(
        request,
        reply,
        request.params.name,
        request.query,
        request.url.slice(request.url.indexOf('?') + 1),
      ),
  );
  app.post(
    '/sign-in/sso/:name/slo',
    {
      bodyLimit: RESPONSE_LIMIT,
      schema: { hide: true, params: ProviderName, body: LogoutMessage },
    },
    async (request, reply) => logout(request, reply, request.params.name, request.body, null),
  );

  app.get(
    '/sign-in/sso/:name/metadata',
    { schema: { hide: true, params: ProviderName } },
    async (request, reply) => {
      const { name } = request.params;
      const xml = await sso.saml.metadata(name, acsUrl(request, name));
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  );
};
