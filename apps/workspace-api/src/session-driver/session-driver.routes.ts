import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toWireId } from '@platform/schemas';
import { API_KEY_SECURITY, errorResponses } from '../api';
import {
  FrameBodySchema,
  InputSentSchema,
  PngSchema,
  SendInputBodySchema,
} from './session-driver.schemas';
import type { SessionDriver } from './session-driver.service';

const tags = ['sessions'];
const security = API_KEY_SECURITY;

/**
 * Driving a running session by program: input and the screen, each with a permission of its own
 * (sessions.drive, sessions.screen), audited as every call whose permission is not a view.
 */
export const sessionDriverRoutes: FastifyPluginAsyncTypebox<{ driver: SessionDriver }> = async (
  app,
  { driver },
) => {
  app.post(
    '/send_kasm_input',
    {
      config: { permission: 'sessions.drive', audit: 'session_input' },
      schema: {
        tags,
        security,
        summary:
          'Send pointer moves, clicks, scrolls, key chords and typed text to a running session, in order',
        description:
          "Acts as the session's user: the key must hold every permission their groups grant. Points are checked against the screen's size (400 when off it).",
        body: SendInputBodySchema,
        response: { 200: InputSentSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const { actions, ...session } = request.body;
      const screen = await driver.input(
        { ...session, grantor: request.apiKey ?? undefined },
        actions,
      );
      return {
        kasm_id: toWireId(request.body.kasm_id),
        ...screen,
        current_time: new Date().toISOString(),
      };
    },
  );

  app.post(
    '/get_kasm_frame',
    {
      config: { permission: 'sessions.screen', audit: 'session' },
      schema: {
        tags,
        security,
        summary:
          "A running session's whole screen as a PNG, through the platform's connection to its stream",
        body: FrameBodySchema,
        response: { 200: PngSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const image = await driver.frame({ ...request.body, grantor: request.apiKey ?? undefined });
      return reply.type('image/png').header('cache-control', 'no-store').send(image);
    },
  );
};
