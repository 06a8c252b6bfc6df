import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isBadText } from '@platform/http';
import { SlackPayloadInvalidError, SlackSignatureInvalidError } from '../errors';
import { errorResponses } from '../api';
import type { SlackEventsService } from './slack-events.service';
import { slackSignatureProblem } from './slack-signature';

const SlackReceiptSchema = Type.Union([
  Type.Object({ challenge: Type.String() }),
  Type.Object({
    status: Type.Union([
      Type.Literal('recorded'),
      Type.Literal('duplicate'),
      Type.Literal('ignored'),
    ]),
    reason: Type.Optional(Type.String()),
  }),
]);

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Keys that would reach an object's prototype if the payload were ever merged into one. */
const poisoned = (key: string, value: unknown) =>
  key === '__proto__' ||
  (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value);

/**
 * JSON.parse, refusing what Fastify's own JSON parser and validator refuse: prototype
 * poisoning, and bad text (NUL, which jsonb cannot hold, and unpaired surrogates) in any
 * string or key: the input guard cannot see into this route's raw body.
 */
function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'), (key, value: unknown) => {
      if (poisoned(key, value)) throw new Error('prototype poisoning');
      if (isBadText(key) || (typeof value === 'string' && isBadText(value)))
        throw new Error('bad text');
      return value;
    });
  } catch {
    throw new SlackPayloadInvalidError();
  }
}

/**
 * Slack's Events API. Encapsulated: its JSON arrives as raw bytes, because the signature covers
 * exactly those bytes; every other route keeps the usual JSON parser. Authenticated by Slack's
 * signature instead of a bearer token.
 */
export const slackEventsRoutes: FastifyPluginAsyncTypebox<{
  slack: SlackEventsService;
  signingSecret: string;
}> = async (app, { slack, signingSecret }) => {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.addHook('preHandler', async (request) => {
    const problem = slackSignatureProblem({
      secret: signingSecret,
      timestamp: header(request.headers['x-slack-request-timestamp']),
      signature: header(request.headers['x-slack-signature']),
      rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    if (problem !== null) throw new SlackSignatureInvalidError(problem);
  });

  app.post(
    '/slack/events',
    {
      config: { auth: false },
      schema: {
        tags: ['chat'],
        summary:
          'Slack Events API request URL: url_verification, and message events (stored, then processed in the background)',
        headers: Type.Object({
          'x-slack-request-timestamp': Type.Optional(Type.String({ maxLength: 32 })),
          'x-slack-signature': Type.Optional(Type.String({ maxLength: 256 })),
          'x-slack-retry-num': Type.Optional(Type.String({ maxLength: 16 })),
        }),
        response: { 200: SlackReceiptSchema, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const receipt = await slack.receive(parseJson(request.body as Buffer));
      const retry = request.headers['x-slack-retry-num'];
      if (retry !== undefined) request.log.info({ retry, receipt }, 'Slack retried an event');
      return receipt;
    },
  );
};
