export interface Credentials {
  key: string;
  secret: string;
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function fromBasic(authorization: string | undefined): Credentials | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The parts of a request credentials travel in; the body is replaced when it held them. */
export interface CredentialCarrier {
  body: unknown;
  headers: Headers;
}

/**
 * Finds the API credentials of a request, in the contract's order of precedence: body fields,
 * then the api-key headers, then Basic auth. Replaces the body with a copy without those fields
 * so that nothing downstream (validation, handlers, logs) ever sees the secret; a copy rather
 * than `delete`, which would turn the body into a slow dictionary for everything after. A
 * half-given pair counts as given: it is then rejected as invalid rather than silently replaced
 * by another source.
 */
export function takeCredentials(request: CredentialCarrier): Credentials | null {
  const { body, headers } = request;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const { api_key: key, api_key_secret: secret, ...rest } = body as Record<string, unknown>;
    if (key !== undefined || secret !== undefined) {
      request.body = rest;
      return {
        key: typeof key === 'string' ? key : '',
        secret: typeof secret === 'string' ? secret : '',
      };
    }
  }
  const headerKey = header(headers, 'api-key');
  const headerSecret = header(headers, 'api-key-secret');
  if (headerKey !== undefined || headerSecret !== undefined) {
    return { key: headerKey ?? '', secret: headerSecret ?? '' };
  }
  return fromBasic(header(headers, 'authorization'));
}
