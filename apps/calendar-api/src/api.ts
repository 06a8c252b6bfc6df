import { problemResponses } from '@platform/schemas';

// What every route of the API shares: its prefix, error responses and security.

/** Every route of the contract lives under this prefix. */
export const API_PREFIX = '/api/calendar';

/** The errors any route can answer (401 when reads need a token too), plus the ones it names. */
export function errorResponses(...statuses: number[]) {
  return problemResponses(400, 401, 503, ...statuses);
}

/**
 * Writes may also be refused to a read-only token, for their body's size or content type, or
 * after too many wrong tokens.
 */
export function writeErrorResponses(...statuses: number[]) {
  return errorResponses(403, 413, 415, 429, ...statuses);
}

export const BEARER_SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }];

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A token from `npm run calendar -- token create --name NAME [--scope read|write] [--expires 90d]`; a read token gets 403 TOKEN_READ_ONLY on writes',
  },
} as const;
