import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** How the test provider's next Responses break a rule (null: none). */
export type SamlIdpMode = 'unsigned' | 'signature' | 'audience' | 'expired' | 'replay' | null;

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  /** Where the platform's LogoutResponses go (single logout). */
  sloUrl: string;
  /** Its signing certificate (PEM), made by openssl when it started. */
  certificate: string;
  /** Sets an account's attributes (its NameID is its login name at the provider). */
  account(username: string, attributes: Record<string, string | string[]>): Promise<void>;
  mode(mode: SamlIdpMode): Promise<void>;
  stop(): Promise<void>;
}

/** Starts saml-idp-server.mjs for a platform's SAML provider `name` at `origin`. */
export async function startTestSamlIdp(origin: string, name: string): Promise<TestSamlIdp> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(__dirname, 'saml-idp-server.mjs'),
      `${origin}/sign-in/sso/${name}/acs`,
      `${origin}/sign-in/sso/${name}/metadata`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  child.once('exit', (code) => {
    if (code) process.stderr.write(`test SAML provider exited (${code}):\n${said}\n`);
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the test SAML provider exited (${code})`)));
  });
  const { entityId, ssoUrl, sloUrl, certificate } = JSON.parse(first) as {
    entityId: string;
    ssoUrl: string;
    sloUrl: string;
    certificate: string;
  };
  const control = async (what: string, body: object) => {
    const res = await fetch(new URL(`/__control/${what}`, ssoUrl), {
      method: 'POST',
      body: JSON.stringify(body),
    });
    if (res.status !== 204)
      throw new Error(`test SAML provider ${what}: ${res.status} ${await res.text()}`);
  };
  return {
    entityId,
    ssoUrl,
    sloUrl,
    certificate,
    account: (username, attributes) => control('account', { username, attributes }),
    mode: (mode) => control('mode', { mode }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
