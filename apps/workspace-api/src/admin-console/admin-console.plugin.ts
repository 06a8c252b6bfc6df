import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { html, pageAssets } from '@platform/http';
import { novncModule } from '../session-page';
import { type AuditTrail, auditWrites } from '../audit';
import { ForbiddenError } from '../errors';
import { assertCsrf, csrfTokenFor, formSecret, sendPage, signInPage } from '../web';
import {
  type AdminSection,
  consoleContext,
  may,
  personOf,
  requirePermission,
} from './admin-context';
import { adminPage } from './admin-layout';

export interface AdminConsoleOptions {
  /** The console's sections, in the navigation's order. */
  sections: AdminSection[];
  /** What a person holds: the union of their groups' permissions. */
  permissionsOf(userId: string): Promise<string[]>;
  /** The trail every write is recorded in, as the API's are, with the person as its actor. */
  audit: AuditTrail;
}

/** Beside this module in the sources, beside the bundle in dist/ (the build copies them). */
const adminAssetFiles = (dir = path.join(__dirname, 'assets')) => ({
  'admin.js': path.join(dir, 'admin.js'),
  'admin.css': path.join(dir, 'admin.css'),
  'recording-player.js': path.join(dir, 'recording-player.js'),
});

const isRead = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD';

/**
 * The administrator's console at `/admin`, inside the web plugin (its sign-in, login cookie,
 * form parsing and page headers). A person sees the sections their groups' permissions allow;
 * every request is checked again, and a form that changes something must carry the CSRF token
 * and the permission its route declares, exactly as an API key needs its operation's.
 */
export const adminConsole: FastifyPluginAsync<AdminConsoleOptions> = async (parent, options) => {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(pageAssets, {
    prefix: '/admin/assets',
    files: adminAssetFiles(),
    notFound: (reply) => reply.code(404).type('text/plain').send('No such file'),
  });
  // The recording player decodes with noVNC's modules, as the session page does.
  app.get('/admin/assets/novnc/*', { schema: { hide: true } }, async (request, reply) => {
    const file = novncModule(`/${(request.params as { '*': string })['*']}`);
    const source = file && (await readFile(file).catch(() => null));
    if (!source) return reply.code(404).type('text/plain').send('No such file');
    return reply
      .type('text/javascript; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'max-age=300')
      .send(source);
  });

  await app.register(async (scope) => {
    scope.decorateRequest('admin', null);

    scope.addHook('onRequest', async (request, reply) => {
      const signedIn = request.signedIn;
      if (!signedIn) {
        // A form posted without a login changes nothing: back to the sign-in page.
        if (!isRead(request)) return reply.redirect('/admin', 303);
        const csrf = csrfTokenFor(formSecret(request, reply));
        const [providers, directories] = [request.ssoButtons, request.ssoDirectories];
        return sendPage(reply, signInPage({ csrf, next: request.url, providers, directories }));
      }
      const grant = { permissions: await options.permissionsOf(signedIn.userId), readOnly: false };
      const sections = options.sections
        .filter((s) => may({ grant }, s.viewPermission))
        .map(({ id, title }) => ({ id, title }));
      if (sections.length === 0)
        throw new ForbiddenError('Your groups grant no administrator permission');
      request.admin = { ...signedIn, grant, sections };
    });

    // Console pages answer failures inside the console, with the way back.
    scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 500;
      const ours = typeof error.code === 'string' && /^[A-Z_]+$/.test(error.code);
      if (!request.admin || !ours || status >= 500) throw error;
      const problems = (error as { errors?: { field: string; message: string }[] }).errors ?? [];
      const body = html`<p class="error" role="alert">
          ${error.validation ? 'The form was not valid.' : error.message}
        </p>
        ${
          problems.length > 0
            ? html`<ul class="error">
                ${problems.map((p) => html`<li>${p.field}: ${p.message}</li>`)}
              </ul>`
            : null
        }
        <p><a href="/admin">Back to the console</a></p>`;
      const title =
        status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : 'That did not work';
      return sendPage(reply, adminPage(request.admin, { title, body }), status);
    });

    scope.get('/admin', { schema: { hide: true } }, async (request, reply) =>
      reply.redirect(`/admin/${personOf(request).sections[0].id}`, 303),
    );

    for (const section of options.sections) {
      await scope.register(
        async (sectionScope) => {
          sectionScope.addHook('preValidation', async (request) => {
            const person = personOf(request);
            requirePermission(person, section.viewPermission);
            if (isRead(request)) return;
            assertCsrf(request, request.signedIn?.token);
            const needed = request.routeOptions.config.permission;
            // A write that declares no permission is a programming error, refused rather than run.
            if (!needed) throw new ForbiddenError('This action declares no permission');
            requirePermission(person, needed);
          });
          auditWrites(sectionScope, { trail: options.audit, contextOf: consoleContext });
          await sectionScope.register(section.routes);
        },
        { prefix: `/admin/${section.id}` },
      );
    }
  });
};
