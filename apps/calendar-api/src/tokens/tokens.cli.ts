import { parseExpiry, tokenState } from './token-rules';
import { type IssuedToken, type TokensService } from './tokens.service';

export const TOKEN_USAGE = `  token create --name NAME [--scope read|write] [--expires WHEN]
                            issue a bearer token (printed once); scope write (the default)
                            may read and write, read only reads; WHEN is 30d, 2026-06-30
                            or 2026-06-30T12:00:00Z, at most 366 days away (default: never)
  token list                every token: id, state, scope, expiry, created, name
  token revoke <id>         revoke a token; it stops working on the next request`;

export interface TokenOptions {
  name?: string;
  scope?: string;
  expires?: string;
}

const print = (line = '') => process.stdout.write(`${line}\n`);

export function printIssued({ apiToken, token }: IssuedToken, baseUrl: string) {
  const expiry = apiToken.expiresAt ? `, expires ${apiToken.expiresAt.toISOString()}` : '';
  print(
    `Token ${apiToken.id} "${apiToken.name}" (scope ${apiToken.scope}${expiry}) issued. It is shown only now; store it safely.`,
  );
  print(`  ${token}`);
  print();
  print('Try it:');
  if (apiToken.scope === 'read') {
    print(`  curl -s ${baseUrl}/api/calendar/events -H 'authorization: Bearer ${token}'`);
    return;
  }
  print(`  curl -s -X POST ${baseUrl}/api/calendar/add_event \\`);
  print(`    -H 'authorization: Bearer ${token}' -H 'content-type: application/json' \\`);
  print(`    -d '{"date": "2025-03-03", "title": "Unit 5 intro"}'`);
}

export async function runTokenCommand(
  tokens: TokensService,
  [action, target]: string[],
  options: TokenOptions,
  baseUrl: string,
): Promise<boolean> {
  if (action === 'create') {
    if (!options.name?.trim()) throw new Error('Give the token a --name');
    const expiresAt = options.expires ? parseExpiry(options.expires, new Date()) : null;
    const grant = { scope: options.scope, expiresAt };
    printIssued(await tokens.create(options.name.trim(), grant), baseUrl);
  } else if (action === 'list') {
    const now = new Date();
    for (const t of await tokens.list()) {
      const expires = t.expiresAt ? `expires ${t.expiresAt.toISOString()}` : 'never expires';
      print(
        `${String(t.id).padStart(4)}  ${tokenState(t, now).padEnd(7)}  ${t.scope.padEnd(5)}  ${expires.padEnd(32)}  ${t.createdAt.toISOString()}  ${t.name}`,
      );
    }
  } else if (action === 'revoke' && target) {
    if (!/^[1-9]\d{0,9}$/.test(target)) throw new Error(`Not a token id: ${target}`);
    const revoked = await tokens.revoke(Number(target));
    print(`Revoked token ${revoked.id} "${revoked.name}"`);
  } else {
    return false;
  }
  return true;
}
