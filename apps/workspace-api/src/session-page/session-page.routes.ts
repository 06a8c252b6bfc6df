import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageAssets } from '@platform/http';
import { problemResponses } from '@platform/schemas';
import type { SessionControls } from './session-controls.service';
import { PAGE_ASSETS } from './session-page.html';
import {
  ChangeBodySchema,
  ChangedSchema,
  SessionParamsSchema,
  SessionStateSchema,
} from './session-page.schemas';

/** The session's own endpoints, under its path so that its grant cookie comes with them. */
export const SESSION_PREFIX = '/kasm/:kasmId/_session';
const tags = ['session page'];
const problems = problemResponses(400, 401, 403, 404, 409, 502);

/** noVNC's ES modules, straight from its package (`core/`, `vendor/`): the browser loads them as they are. */
const NOVNC_DIR = path.dirname(path.dirname(require.resolve('@novnc/novnc')));
const NOVNC_FILE = /^\/(core|vendor)\/[\w/.-]+\.js$/;

/** Where one of noVNC's modules is on disk (`/core/rfb.js`…), or null for any other path. */
export const novncModule = (relative: string): string | null =>
  NOVNC_FILE.test(relative) && !relative.includes('..') ? path.join(NOVNC_DIR, relative) : null;

export interface SessionPageRoutesOptions {
  controls: SessionControls;
  /** The page's own files by name (session-page.js, its panel, its stylesheet, the files panel). */
  assets: Record<string, string>;
}

const novnc: FastifyPluginAsync = async (app) => {
  await app.register(fastifyStatic, {
    root: NOVNC_DIR,
    prefix: `${PAGE_ASSETS}/novnc/`,
    maxAge: 300_000,
    allowedPath: (pathName) => NOVNC_FILE.test(pathName) && !pathName.includes('..'),
    setHeaders(reply) {
      reply.header('x-content-type-options', 'nosniff');
      reply.type('text/javascript; charset=utf-8');
    },
  });
};

/**
 * The session page's files (its module, panel and stylesheet, and noVNC's modules), the same
 * for every session, and each session's status, sleep and end for its page. On the sessions
 * origin, like the proxy; the page itself is the proxy's answer at `/kasm/<kasm_id>/`.
 */
export const sessionPageRoutes: FastifyPluginAsyncTypebox<SessionPageRoutesOptions> = async (
  app,
  { controls, assets },
) => {
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  await app.register(novnc);
  await app.register(pageAssets, {
    prefix: PAGE_ASSETS,
    files: assets,
    notFound: (reply) => reply.code(404).type('text/plain; charset=utf-8').send('No such file'),
  });

  app.get(
    `${SESSION_PREFIX}/status`,
    {
      schema: {
        tags,
        summary: 'Where the session stands and when it ends',
        params: SessionParamsSchema,
        response: { 200: SessionStateSchema, ...problems },
      },
    },
    async (request) => {
      const { kasmId } = request.params;
      const { status, expiresAt } = await controls.state(request, kasmId);
      const left = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
      return {
        kasm_id: kasmId,
        status,
        expiration_date: expiresAt.toISOString(),
        time_left_seconds: left,
      };
    },
  );

  app.post(
    `${SESSION_PREFIX}/stop`,
    {
      schema: {
        tags,
        summary: 'Put the session to sleep (stop_kasm): its container stops and keeps its disk',
        params: SessionParamsSchema,
        body: ChangeBodySchema,
        response: { 200: ChangedSchema, ...problems },
      },
    },
    async (request) => {
      await controls.sleep(request, request.params.kasmId);
      return { kasm_id: request.params.kasmId, status: 'stopped' };
    },
  );

  app.post(
    `${SESSION_PREFIX}/destroy`,
    {
      schema: {
        tags,
        summary: 'End the session (destroy_kasm): its container is removed',
        params: SessionParamsSchema,
        body: ChangeBodySchema,
        response: { 200: ChangedSchema, ...problems },
      },
    },
    async (request) => {
      await controls.end(request, request.params.kasmId);
      return { kasm_id: request.params.kasmId, status: 'destroyed' };
    },
  );
};
