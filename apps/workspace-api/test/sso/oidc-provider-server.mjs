// An OpenID provider for the tests: panva's oidc-provider on a loopback port, run as a process of
// its own (it is an ES module; Jest runs CommonJS). It prints {"issuer": …} once it listens.
// Its login page asks for a username only; consent is given at once. A control API lets a test
// set the accounts' claims, make the token endpoint's ID token break one rule (re-signed with the
// provider's own key, or another key for `signature`) and start a back-channel logout.
//   node oidc-provider-server.mjs <client redirect URI> <back-channel logout URI>
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import Provider from 'oidc-provider';

const [redirectUri, logoutUri] = process.argv.slice(2);
const CLIENT = { id: 'workspaces', secret: 'client-secret-of-the-tests' };
const accounts = new Map();
let tamper = null;

const signingKey = await generateKeyPair('RS256', { extractable: true });
const otherKey = await generateKeyPair('RS256');
const jwk = {
  ...(await exportJWK(signingKey.privateKey)),
  kid: 'test-key',
  alg: 'RS256',
  use: 'sig',
};

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      redirect_uris: [redirectUri],
      backchannel_logout_uri: logoutUri,
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  jwks: { keys: [jwk] },
  cookies: { keys: ['cookie-key-of-the-tests'] },
  conformIdTokenClaims: false,
  claims: {
    openid: ['sub'],
    profile: ['preferred_username', 'given_name', 'family_name', 'groups'],
    email: ['email'],
  },
  features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, id) {
    const claims = accounts.get(id);
    return claims && { accountId: id, claims: async () => ({ sub: id, ...claims }) };
  },
});

async function resign(idToken) {
  const claims = decodeJwt(idToken);
  const now = Math.floor(Date.now() / 1000);
  const changed = {
    aud: { ...claims, aud: 'another-client', azp: undefined },
    iss: { ...claims, iss: 'http://127.0.0.1:1/another-issuer' },
    exp: { ...claims, iat: now - 7200, exp: now - 3600 },
    nonce: { ...claims, nonce: 'not-the-nonce-of-this-sign-in' },
    signature: claims,
  }[tamper];
  const key = tamper === 'signature' ? otherKey.privateKey : signingKey.privateKey;
  return new SignJWT(changed).setProtectedHeader(decodeProtectedHeader(idToken)).sign(key);
}

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === '/token' && tamper && ctx.body?.id_token) {
    ctx.body = { ...ctx.body, id_token: await resign(ctx.body.id_token) };
  }
});

const readBody = async (req) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
};
const page = (res, body) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><title>Test provider</title><main>${body}</main></html>`);
};

async function interaction(req, res, uid) {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    const username = new URLSearchParams(await readBody(req)).get('username');
    return provider.interactionFinished(req, res, { login: { accountId: username } });
  }
  if (details.prompt.name === 'login') {
    return page(
      res,
      `<h1>Test provider</h1><form method="post" action="/interaction/${uid}">
        <label for="u">Username</label><input id="u" name="username" />
        <button type="submit">Sign in</button></form>`,
    );
  }
  const grant = new provider.Grant({ accountId: details.session.accountId, clientId: CLIENT.id });
  grant.addOIDCScope(details.params.scope);
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } });
}

async function control(req, res, what) {
  const body = JSON.parse((await readBody(req)) || '{}');
  if (what === 'account') accounts.set(body.sub, body.claims);
  if (what === 'tamper') tamper = body.mode ?? null;
  if (what === 'logout') {
    const client = await provider.Client.find(CLIENT.id);
    await client.backchannelLogout(body.sub, 'sid-of-the-tests');
  }
  res.writeHead(204).end();
}

const callback = provider.callback();
server.on('request', (req, res) => {
  const url = new URL(req.url, issuer);
  const [, first, second] = url.pathname.split('/');
  const handled =
    first === 'interaction'
      ? interaction(req, res, second)
      : first === '__control'
        ? control(req, res, second)
        : null;
  if (!handled) return callback(req, res);
  handled.catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error.message));
  });
});
process.stdout.write(`${JSON.stringify({ issuer, ...CLIENT })}\n`);
