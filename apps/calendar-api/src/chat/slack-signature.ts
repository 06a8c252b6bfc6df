import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's replay window: requests signed longer ago (or further ahead) than this are refused. */
export const SLACK_MAX_SKEW_SECONDS = 5 * 60;

/** `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`, exactly as Slack computes it. */
export function slackSignature(secret: string, timestamp: string, rawBody: Buffer): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`v0:${timestamp}:`, 'utf8');
  hmac.update(rawBody);
  return `v0=${hmac.digest('hex')}`;
}

export interface SignedRequest {
  secret: string;
  /** X-Slack-Request-Timestamp, X-Slack-Signature */
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
  nowSeconds: number;
}

/** Null when Slack signed these exact bytes recently; otherwise why the request is refused. */
export function slackSignatureProblem(request: SignedRequest): string | null {
  if (request.secret === '') return 'Slack events are not configured (no signing secret)';
  const { timestamp, signature } = request;
  if (timestamp === undefined || signature === undefined) {
    return 'X-Slack-Request-Timestamp and X-Slack-Signature are required';
  }
  if (!/^\d{1,12}$/.test(timestamp)) return 'X-Slack-Request-Timestamp is not a Unix time';
  if (Math.abs(request.nowSeconds - Number(timestamp)) > SLACK_MAX_SKEW_SECONDS) {
    return 'X-Slack-Request-Timestamp is more than 5 minutes away from now';
  }
  const expected = Buffer.from(slackSignature(request.secret, timestamp, request.rawBody));
  const presented = Buffer.from(signature);
  // Only the length can differ quickly, and every valid signature has the same length.
  const matches = expected.length === presented.length && timingSafeEqual(expected, presented);
  return matches ? null : 'X-Slack-Signature does not match the request';
}
