import type { FieldProblem } from '@platform/errors';
import type { OidcSettings } from './oidc-settings';

const DISCOVERY_TIMEOUT_MS = 10_000;

const causeOf = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

/**
 * What "test this configuration" checks of an OpenID Connect provider beyond its schema: the
 * issuer's scheme, and its discovery document read now, naming the same issuer and the endpoints
 * a sign-in uses. Fields are relative to the kind's settings block; only the settings that match
 * the schema are given.
 */
export async function checkOidcSettings(settings: Partial<OidcSettings>): Promise<FieldProblem[]> {
  // A missing or malformed issuer is the schema's problem: there is nothing to read.
  if (!settings.issuer) return [];
  if (!URL.canParse(settings.issuer)) return [{ field: 'issuer', message: 'is not a URL' }];
  const issuer = new URL(settings.issuer);
  if (issuer.protocol !== 'https:' && !settings.allow_http)
    return [{ field: 'issuer', message: 'must be https (allow_http is for a lab only)' }];
  const url = `${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let document: Record<string, unknown>;
  try {
    const answer = await fetch(url, {
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!answer.ok)
      return [{ field: 'issuer', message: `discovery at ${url} answered ${answer.status}` }];
    document = (await answer.json()) as Record<string, unknown>;
  } catch (error) {
    return [{ field: 'issuer', message: `discovery at ${url} failed (${causeOf(error)})` }];
  }
  const problems: FieldProblem[] = [];
  if (document.issuer !== settings.issuer)
    problems.push({
      field: 'issuer',
      message: `the discovery document names the issuer ${JSON.stringify(document.issuer ?? null)}, not ${settings.issuer}`,
    });
  for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'])
    if (typeof document[endpoint] !== 'string')
      problems.push({ field: 'issuer', message: `the discovery document has no ${endpoint}` });
  return problems;
}
