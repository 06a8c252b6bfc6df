import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toTimestamp, toWireId } from '@platform/schemas';
import { holds } from '../api-keys';
import { requestHostOf } from '../domain';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toKasmResponse, toKasmStatus } from './kasm-response';
import {
  ExecCommandBodySchema,
  ExecResultSchema,
  JpegSchema,
  KasmEnvelopeSchema,
  KasmIdBodySchema,
  KasmsSchema,
  KasmStatusSchema,
  KeepaliveSchema,
  RequestKasmBodySchema,
  RequestKasmResponseSchema,
  ScreenshotBodySchema,
  UserIdBodySchema,
} from './sessions.schemas';
import type { LaunchSession } from './launch-session';
import type { SessionsService } from './sessions.service';

const tags = ['sessions'];
const security = API_KEY_SECURITY;
const now = () => new Date().toISOString();

export const sessionsRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionsService;
  launchSession: LaunchSession;
}> = async (app, { sessions, launchSession }) => {
  app.post(
    '/request_kasm',
    {
      config: { permission: 'users.auth_session', audit: 'session', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          'Launch a session of a workspace for a user; poll get_kasm_status until running (a launch still waiting its turn after LAUNCH_QUEUE_ANSWER_MS is answered status queued)',
        body: RequestKasmBodySchema,
        response: { 200: RequestKasmResponseSchema, ...errorResponses(404, 409, 502) },
      },
    },
    async (request) =>
      launchSession(
        request.body,
        requestHostOf(request),
        request.apiKey ?? undefined,
        request.audit,
      ),
  );

  app.post(
    '/get_kasm_status',
    {
      config: { permission: 'sessions.view' },
      schema: {
        tags,
        security,
        summary: 'One session, with a fresh kasm_url while it is live',
        description:
          'kasm_url is a new connect link (the previous one stops working) only for a key that may act as the user (users.auth_session); for others it is null and the current link keeps working.',
        body: KasmIdBodySchema,
        response: { 200: KasmStatusSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { kasm_id, user_id } = request.body;
      const newLink = request.apiKey !== null && holds(request.apiKey, 'users.auth_session');
      const found = await sessions.status(kasm_id, user_id, {
        newLink,
        requestHost: requestHostOf(request),
        grantor: request.apiKey ?? undefined,
      });
      return toKasmStatus(found, now());
    },
  );

  app.post(
    '/get_kasms',
    {
      config: { permission: 'sessions.view' },
      schema: {
        tags,
        security,
        summary: 'Every live session',
        response: { 200: KasmsSchema, ...errorResponses() },
      },
    },
    async () => ({ kasms: (await sessions.listLive()).map(toKasmResponse), current_time: now() }),
  );

  app.post(
    '/get_user_kasms',
    {
      config: { permission: 'sessions.view' },
      schema: {
        tags,
        security,
        summary: "One user's live sessions",
        body: UserIdBodySchema,
        response: { 200: KasmsSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      kasms: (await sessions.listLiveOf(request.body.user_id)).map(toKasmResponse),
      current_time: now(),
    }),
  );

  app.post(
    '/keepalive',
    {
      config: { permission: 'sessions.modify', audit: 'session', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Extend a running session by the keepalive window, up to its time limit',
        body: KasmIdBodySchema,
        response: { 200: KeepaliveSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const result = await sessions.keepalive(request.body.kasm_id, undefined, request.audit);
      return { usage_reached: result.usageReached, expiration_date: toTimestamp(result.expiresAt) };
    },
  );

  app.post(
    '/exec_command_kasm',
    {
      config: { permission: 'sessions.modify', audit: 'session_command' },
      schema: {
        tags,
        security,
        summary:
          'Run a command inside a running session (as root or privileged: global_admin); answers the session, the exit code and output',
        body: ExecCommandBodySchema,
        response: { 200: ExecResultSchema, ...errorResponses(404, 409, 502) },
      },
    },
    async (request) => {
      const result = await sessions.exec(request.body, request.apiKey ?? undefined);
      return {
        kasm: toKasmResponse(result.row),
        kasm_id: toWireId(request.body.kasm_id),
        exit_code: result.exitCode,
        output: result.output,
        current_time: now(),
      };
    },
  );

  const sleepOperations = [
    [
      'stop',
      'Stop the container and keep it with its disk; frees its cores and memory on the agent',
    ],
    ['pause', 'Freeze the container (docker pause); its cores and memory stay reserved'],
    ['resume', 'Bring a stopped or paused session back to running on the same agent'],
  ] as const;
  for (const [operation, summary] of sleepOperations) {
    app.post(
      `/${operation}_kasm`,
      {
        config: { permission: 'sessions.modify', audit: 'session', auditInChange: true },
        schema: {
          tags,
          security,
          summary,
          body: KasmIdBodySchema,
          response: { 200: KasmEnvelopeSchema, ...errorResponses(404, 409, 502) },
        },
      },
      async (request) => {
        const { kasm_id, user_id } = request.body;
        const row = await sessions.sleepOrWake(operation, kasm_id, user_id, request.audit);
        return { kasm: toKasmResponse(row), current_time: now() };
      },
    );
  }

  app.post(
    '/get_kasm_screenshot',
    {
      // The user's screen shows what they work on: a permission of its own, as get_kasm_frame.
      config: { permission: 'sessions.screen', audit: 'session' },
      schema: {
        tags,
        security,
        summary:
          "The session's screen as a JPEG, for workspaces with a VNC display (KASM_NO_DISPLAY otherwise)",
        body: ScreenshotBodySchema,
        response: { 200: JpegSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { kasm_id, user_id, width } = request.body;
      const image = await sessions.screenshot(kasm_id, user_id, width);
      return reply.type('image/jpeg').header('cache-control', 'no-store').send(image);
    },
  );

  app.post(
    '/destroy_kasm',
    {
      config: { permission: 'sessions.delete', audit: 'session', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Stop and remove the session container; the profile stays',
        body: KasmIdBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404, 502) },
      },
    },
    async (request) => {
      await sessions.destroy(request.body.kasm_id, request.body.user_id, request.audit);
      return {};
    },
  );
};
