import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sets an account's claims (its `sub` is its login name at the provider). */
  account(sub: string, claims: Record<string, unknown>): Promise<void>;
  /** Makes the token endpoint's ID tokens break one rule, or none again (null). */
  tamper(mode: 'aud' | 'iss' | 'exp' | 'nonce' | 'signature' | null): Promise<void>;
  /** The provider signs the account out: its back-channel logout token goes to the platform. */
  logout(sub: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts oidc-provider-server.mjs (a real oidc-provider) for a platform at `origin`. */
export async function startTestProvider(origin: string, name: string): Promise<TestProvider> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(__dirname, 'oidc-provider-server.mjs'),
      `${origin}/sign-in/sso/${name}/callback`,
      `${origin}/sign-in/sso/${name}/backchannel-logout`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Its warnings (the in-memory adapter) are noise; what it says before it dies is not.
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  child.once('exit', (code) => {
    if (code) process.stderr.write(`test OpenID provider exited (${code}):\n${said}\n`);
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the test provider exited (${code})`)));
  });
  const { issuer, id, secret } = JSON.parse(first) as {
    issuer: string;
    id: string;
    secret: string;
  };
  const control = async (what: string, body: object) => {
    const res = await fetch(`${issuer}/__control/${what}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    if (res.status !== 204)
      throw new Error(`test provider ${what}: ${res.status} ${await res.text()}`);
  };
  return {
    issuer,
    clientId: id,
    clientSecret: secret,
    account: (sub, claims) => control('account', { sub, claims }),
    tamper: (mode) => control('tamper', { mode }),
    logout: (sub) => control('logout', { sub }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
