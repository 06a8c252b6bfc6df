import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
// Signs as Slack does with the chat feature's own function, so a test request carries exactly
// the signature the route checks: the one test helper that reaches inside chat/.
// eslint-disable-next-line no-restricted-imports -- see above
import { slackSignature } from '../src/chat/slack-signature';
import { API } from './harness';

export { slackSignature };

export const SIGNING_SECRET = 'test-signing-secret-8f742231b10e';

export interface SlackSend {
  /** Seconds to shift the timestamp into the past. */
  ageSeconds?: number;
  secret?: string;
  /** Replaces the computed signature. */
  signature?: string;
  headers?: Record<string, string>;
}

/**
 * Posts to /slack/events as Slack does: the body serialized once, and the signature computed
 * over exactly those bytes (so multi-byte characters are covered as sent).
 */
export function sendToSlackRoute(
  app: FastifyInstance,
  payload: object | string,
  { ageSeconds = 0, secret = SIGNING_SECRET, signature, headers = {} }: SlackSend = {},
): Promise<LightMyRequestResponse> {
  const raw = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
  const timestamp = String(Math.floor(Date.now() / 1000) - ageSeconds);
  return app.inject({
    method: 'POST',
    url: `${API}/slack/events`,
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature ?? slackSignature(secret, timestamp, raw),
      ...headers,
    },
  });
}
