import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdSchema, toWireId } from '@platform/schemas';
import { KasmNotRunningError } from '../errors';
import { requestHostOf } from '../domain';
import {
  currentPhaseWords,
  type KasmWithOwners,
  toKasmResponse,
  toWaitResponse,
  type WaitStatus,
} from '../sessions';
import { dashboardPage, signInPage } from './pages';
import { openingPage, sessionsSection, startPage, type SessionLine } from './session-pages';
import { sendPage, type WebOptions } from './web-context';
import { assertCsrf, CSRF_FIELD, csrfTokenFor, formSecret } from './web-security';

const NOTICES: Record<string, string> = {
  destroyed: 'The session was destroyed.',
  kept: 'The session was kept alive.',
};

const KasmParams = Type.Object({ kasmId: IdSchema });
const CsrfForm = Type.Object({ [CSRF_FIELD]: Type.Optional(Type.String({ maxLength: 200 })) });

/** A session's line, or a launch's still waiting its turn (its place in the queue as message). */
function lineOf(found: KasmWithOwners | { wait: WaitStatus }): SessionLine {
  if ('wait' in found) {
    const wire = toWaitResponse(found.wait);
    return {
      kasmId: wire.kasm_id,
      friendlyName: found.wait.image.friendlyName,
      status: wire.operational_status,
      progress: wire.operational_progress,
      message: wire.operational_message,
      phase: null,
      expiresAt: found.wait.row.expiresAt,
    };
  }
  const row = found;
  const wire = toKasmResponse(row);
  return {
    kasmId: wire.kasm_id,
    friendlyName: row.image.friendlyName,
    status: row.status,
    progress: wire.operational_progress,
    message: row.statusMessage,
    phase: currentPhaseWords(row.status, row.launchTimeline),
    expiresAt: row.expiresAt,
  };
}

/**
 * Whether the page's policy (form-action: its own origin and the zones' session origins) lets the
 * Open form's redirect go to `url`; elsewhere the Opening page takes the browser on.
 */
function formMayReach(url: string, request: FastifyRequest): boolean {
  const origin = new URL(url).origin;
  const own = new URL(`${request.protocol}://${request.host}`).origin;
  return origin === own || request.formTargets.includes(origin);
}

/** The signed-in user, or the reply is already on its way (sign-in page, redirect or 401). */
function userOf(request: FastifyRequest, reply: FastifyReply) {
  const user = request.signedIn;
  if (user) return user;
  if (request.method !== 'GET') void reply.redirect('/', 303);
  else if (request.headers.accept?.includes('application/json'))
    void reply.code(401).send({ status: 'signed out' });
  else void reply.redirect('/', 303);
  return null;
}

/** What a signed-in user does: see allowed workspaces, launch, watch, open, keep and end sessions. */
export const workspacesRoutes: FastifyPluginAsyncTypebox<WebOptions> = async (
  app,
  { sessions, launchSession, images },
) => {
  const linesOf = async (userId: string) => (await sessions.listLive(userId)).map(lineOf);

  app.get(
    '/',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 200 })),
          done: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
    },
    async (request, reply) => {
      const user = request.signedIn;
      if (!user) {
        const csrf = csrfTokenFor(formSecret(request, reply));
        return sendPage(
          reply,
          signInPage({
            csrf,
            providers: request.ssoButtons,
            directories: request.ssoDirectories,
          }),
        );
      }
      const [allowed, lines] = await Promise.all([
        images.allowedFor({ user_id: user.userId }),
        linesOf(user.userId),
      ]);
      const page = dashboardPage({
        username: user.username,
        csrf: user.csrf,
        query: request.query.q ?? '',
        notice: NOTICES[request.query.done ?? ''],
        sessions: lines,
        workspaces: allowed.map((image) => ({
          imageId: toWireId(image.id),
          friendlyName: image.friendlyName,
          description: image.description,
          categories: image.categories,
        })),
      });
      return sendPage(reply, page);
    },
  );

  app.get('/sessions', { schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request, reply);
    if (!user) return reply;
    return sendPage(reply, sessionsSection(await linesOf(user.userId), user.csrf));
  });

  app.post(
    '/workspaces/:imageId/launch',
    { schema: { hide: true, params: Type.Object({ imageId: IdSchema }), body: CsrfForm } },
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      assertCsrf(request, user.token);
      const kasm = await launchSession(
        { user_id: toWireId(user.userId), image_id: request.params.imageId },
        requestHostOf(request),
      );
      // A staged session runs already: straight into it, with the link the launch answered.
      if (kasm.status === 'running' && formMayReach(kasm.kasm_url, request))
        return reply.redirect(kasm.kasm_url, 303);
      return reply.redirect(`/sessions/${kasm.kasm_id}`, 303);
    },
  );

  app.get(
    '/sessions/:kasmId',
    { schema: { hide: true, params: KasmParams } },
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const found = await sessions.findOrWait(request.params.kasmId, user.userId);
      const session = lineOf('wait' in found ? found : found.row);
      return sendPage(reply, startPage({ username: user.username, csrf: user.csrf, session }));
    },
  );

  app.get(
    '/sessions/:kasmId/status',
    { schema: { hide: true, params: KasmParams } },
    async (request, reply) => {
      const user = userOf(request, reply);
      if (!user) return reply;
      const found = await sessions.findOrWait(request.params.kasmId, user.userId);
      const line = lineOf('wait' in found ? found : found.row);
      reply.header('cache-control', 'no-store');
      return {
        status: line.status,
        phase: line.phase,
        progress: line.progress,
        message: line.message,
      };
    },
  );

  /** A signed-in form post about one of the user's sessions: CSRF-checked, then `run`. */
  const sessionAction = (
    action: string,
    run: (kasmId: string, userId: string, reply: FastifyReply) => Promise<FastifyReply>,
  ) =>
    app.post(
      `/sessions/:kasmId/${action}`,
      { schema: { hide: true, params: KasmParams, body: CsrfForm } },
      async (request, reply) => {
        const user = userOf(request, reply);
        if (!user) return reply;
        assertCsrf(request, user.token);
        return run(request.params.kasmId, user.userId, reply);
      },
    );

  // A new connect link each time (the previous one stops working); the proxy turns it into its cookie.
  sessionAction('open', async (kasmId, userId, reply) => {
    const found = await sessions.status(kasmId, userId, {
      newLink: true,
      requestHost: requestHostOf(reply.request),
    });
    if ('wait' in found) throw new KasmNotRunningError(`The launch is ${found.wait.row.status}`);
    const { row, kasmUrl } = found;
    if (row.status !== 'running' || !kasmUrl)
      throw new KasmNotRunningError(`The session is ${row.status}`);
    if (formMayReach(kasmUrl, reply.request)) return reply.redirect(kasmUrl, 303);
    return sendPage(reply, openingPage({ friendlyName: row.image.friendlyName, url: kasmUrl }));
  });
  sessionAction('keepalive', async (kasmId, userId, reply) => {
    await sessions.keepalive(kasmId, userId);
    return reply.redirect('/?done=kept', 303);
  });
  sessionAction('destroy', async (kasmId, userId, reply) => {
    await sessions.destroy(kasmId, userId);
    return reply.redirect('/?done=destroyed', 303);
  });
};
