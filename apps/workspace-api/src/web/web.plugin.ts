import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pageAssets } from '@platform/http';
import { IdSchema } from '@platform/schemas';
import { Type } from '@sinclair/typebox';
import { createExpiringCache, parseRequestHost, sessionCookieName } from '../domain';
import type { ZoneProxy } from '../launch-plan';
import type { OfferedProvider } from '../sso';
import { messagePage } from './pages';
import { sessionOrigins } from './session-origins';
import { assetFiles, readBuiltInIcon } from './web-assets';
import { signInRoutes } from './sign-in.routes';
import { ssoRoutes } from './sso.routes';
import { sendPage, type WebOptions } from './web-context';
import { csrfTokenFor } from './web-security';
import { workspacesRoutes } from './workspaces.routes';

const ICON_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The web page at `/`: users sign in with a password or a get_login link, see their allowed
 * workspaces, launch, open and end sessions. Server-rendered HTML, one script and one
 * stylesheet from here, a login session in an HttpOnly cookie, and a CSRF token on every form.
 */
export const webPlugin: FastifyPluginAsync<WebOptions> = async (parent, options) => {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const builtInIcon = readBuiltInIcon();
  await app.register(cookie);

  await app.register(formbody, { bodyLimit: 16 * 1024 });

  // Zones change rarely: read at most once a second, however many pages are served.
  const zoneCache = createExpiringCache<'zones', ZoneProxy[]>({ ttlMs: 1000, maxEntries: 1 });
  const buttonCache = createExpiringCache<'buttons' | 'directories', OfferedProvider[]>({
    ttlMs: 1000,
    maxEntries: 2,
  });
  app.decorateRequest('signedIn', null);
  app.decorateRequest('ssoButtons', null as unknown as OfferedProvider[]);
  app.decorateRequest('ssoDirectories', null as unknown as OfferedProvider[]);
  app.decorateRequest('formTargets', null as unknown as string[]);
  app.addHook('onRequest', async (request) => {
    let zones = zoneCache.get('zones');
    if (!zones) zoneCache.set('zones', (zones = await options.zones.list()));
    const host = parseRequestHost(request.host);
    request.formTargets = sessionOrigins(zones, options.sessionScheme, host);
  });
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[sessionCookieName(request)];
    if (!token || token.length > 200) return;
    const user = await options.logins.sessionUser(token);
    if (user) request.signedIn = { ...user, token, csrf: csrfTokenFor(token) };
  });
  app.addHook('onRequest', async (request) => {
    if (request.signedIn) return void (request.ssoButtons = request.ssoDirectories = []);
    let buttons = buttonCache.get('buttons');
    if (!buttons) buttonCache.set('buttons', (buttons = await options.sso.buttons()));
    request.ssoButtons = buttons;
    let directories = buttonCache.get('directories');
    if (!directories)
      buttonCache.set('directories', (directories = await options.sso.formProviders()));
    request.ssoDirectories = directories;
  });

  // Pages answer pages, also when something fails; the status JSON keeps problem+json.
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode ?? 500;
    // Our own errors (they carry a code) are told to the user; anything else is the generic 500.
    const ours = typeof error.code === 'string' && /^[A-Z_]+$/.test(error.code) && status !== 500;
    if (!ours || request.headers.accept?.includes('application/json')) throw error;
    const signedIn = request.signedIn;
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter) reply.header('retry-after', Math.max(1, Math.ceil(retryAfter)));
    return sendPage(
      reply,
      messagePage({
        title: status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : 'That did not work',
        message: error.validation ? 'The request was not valid.' : error.message,
        username: signedIn?.username,
        csrf: signedIn?.csrf,
      }),
      status,
    );
  });

  await app.register(pageAssets, {
    prefix: '/assets',
    files: assetFiles(),
    notFound: (reply) =>
      sendPage(reply, messagePage({ title: 'Not found', message: 'No such file' }), 404),
  });

  app.get(
    '/icons/:imageId',
    { schema: { hide: true, params: Type.Object({ imageId: IdSchema }) } },
    async (request, reply) => {
      const icon = await options.icons.find(request.params.imageId);
      const { type, body } = icon
        ? { type: icon.contentType, body: icon.data }
        : { type: 'image/svg+xml', body: builtInIcon };
      // An SVG from a registry could carry script: as a document it gets no powers at all.
      return reply
        .type(type)
        .header('content-security-policy', ICON_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=300')
        .send(body);
    },
  );

  await app.register(signInRoutes, { logins: options.logins, sso: options.sso });
  await app.register(ssoRoutes, { sso: options.sso });
  await app.register(workspacesRoutes, options);
  if (options.extend) await options.extend(app);
};
