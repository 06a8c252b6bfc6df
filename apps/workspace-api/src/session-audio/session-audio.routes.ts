import path from 'node:path';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageAssets } from '@platform/http';
import { problemResponses } from '@platform/schemas';
import { AUDIO_FORMAT, AUDIO_RATE } from './audio-capture';
import type { SessionAudioService } from './session-audio.service';
import { AudioFormatSchema, AudioParamsSchema, AudioQuerySchema } from './session-audio.schemas';

/** Where the feature answers on the sessions origin: under the session's path, so its grant cookie comes. */
export const AUDIO_PREFIX = '/kasm/:kasmId/_audio';
/** The page's player and its AudioWorklet, beside this module in the sources and in dist/assets. */
const ASSETS = path.join(__dirname, 'assets');
const problems = problemResponses(400, 401, 403, 404, 409, 429, 502);

export const sessionAudioRoutes: FastifyPluginAsyncTypebox<{ audio: SessionAudioService }> = async (
  app,
  { audio },
) => {
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);

  app.get(
    AUDIO_PREFIX,
    {
      schema: {
        tags: ['session sound'],
        summary:
          "The session's desktop sound: with Upgrade: websocket, the stream (a text message naming its format, then binary PCM); without, whether it can play now",
        params: AudioParamsSchema,
        querystring: AudioQuerySchema,
        response: { 200: AudioFormatSchema, ...problems },
      },
    },
    async (request, reply) => {
      const channels = request.query.channels ?? 2;
      const { kasmId } = request.params;
      if (request.headers.upgrade?.toLowerCase() === 'websocket') {
        await audio.open(request, kasmId, channels, () => reply.hijack());
        return reply;
      }
      await audio.probe(request, kasmId, channels);
      return { format: AUDIO_FORMAT, rate: AUDIO_RATE, channels };
    },
  );

  await app.register(pageAssets, {
    prefix: AUDIO_PREFIX,
    files: {
      'player.js': path.join(ASSETS, 'session-audio.js'),
      'worklet.js': path.join(ASSETS, 'session-audio-worklet.js'),
    },
    notFound: (reply) => reply.code(404).type('text/plain').send('No such file'),
  });
};
