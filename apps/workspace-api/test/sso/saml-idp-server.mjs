// A SAML 2.0 identity provider for the tests, run as a process of its own. It reads the
// service provider's AuthnRequest (HTTP-Redirect binding), asks for a username, and posts a
// Response whose assertion it signs with xml-crypto, using a key and certificate that openssl
// makes when it starts. It prints {"entityId", "ssoUrl", "certificate"} once it listens.
// A control API sets the accounts' attributes and makes the next Responses break one rule:
// unsigned, signed by another key, for another audience, expired, or the last one again.
// GET /logout?username=…[&binding=post] starts single logout: a LogoutRequest to the platform by
// the Redirect binding (signed in the query) or POST (signed XML), as the modes say; the
// platform's LogoutResponse comes back to /slo-done.
//   node saml-idp-server.mjs <ACS URL> <SP entity ID>
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const [acsUrl, spEntityId] = process.argv.slice(2);
const accounts = new Map();
const requests = new Map();
let mode = null;
let lastResponse = null;

const dir = mkdtempSync(path.join(tmpdir(), 'saml-idp-'));
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=test-saml-idp',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
  ],
  { stdio: 'ignore' },
);
const privateKey = readFileSync(path.join(dir, 'key.pem'), 'utf8');
const certificate = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
rmSync(dir, { recursive: true });
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
});

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const entityId = `${base}/idp`;

const esc = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const id = () => `_${randomBytes(16).toString('hex')}`;
const at = (offsetSeconds) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

function assertionXml(username, requestId) {
  const expired = mode === 'expired';
  const [issued, notOnOrAfter] = expired ? [at(-7200), at(-3600)] : [at(0), at(300)];
  const audience = mode === 'audience' ? 'urn:another-service-provider' : spEntityId;
  const attributes = Object.entries(accounts.get(username) ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${esc(name)}">${[value]
          .flat()
          .map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${esc(username)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${esc(requestId)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${expired ? at(-7260) : at(-60)}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${id()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`
  );
}

/** `element` signed as IdPs do: enveloped, exclusive C14N, RSA-SHA256, after its Issuer. */
function signed(xml, element = 'Assertion') {
  const signer = new SignedXml({
    privateKey: mode === 'signature' ? otherKey : privateKey,
    publicCert: certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: `//*[local-name(.)='${element}']`,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: {
      reference: `//*[local-name(.)='${element}']/*[local-name(.)='Issuer']`,
      action: 'after',
    },
  });
  return signer.getSignedXml();
}

function responseFor(username, requestId) {
  if (mode === 'replay' && lastResponse) return lastResponse;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${at(0)}" Destination="${esc(acsUrl)}" InResponseTo="${esc(requestId)}">` +
    `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `${assertionXml(username, requestId)}</samlp:Response>`;
  lastResponse = Buffer.from(mode === 'unsigned' ? xml : signed(xml)).toString('base64');
  return lastResponse;
}

const SIG_ALG = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

const sloUrl = acsUrl.replace(/\/acs$/, '/slo');
const logoutRequestXml = (username) =>
  `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${at(0)}" NotOnOrAfter="${at(300)}" Destination="${esc(sloUrl)}">` +
  `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
  `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${esc(username)}</saml:NameID>` +
  `</samlp:LogoutRequest>`;

/** The platform's single logout URL with a LogoutRequest (Redirect binding: signed in the query). */
function logoutRedirect(username) {
  const enc = encodeURIComponent;
  const request = deflateRawSync(logoutRequestXml(username)).toString('base64');
  let query = `SAMLRequest=${enc(request)}&RelayState=${enc('from-the-idp')}`;
  if (mode !== 'unsigned') {
    query += `&SigAlg=${enc(SIG_ALG)}`;
    const key = mode === 'signature' ? otherKey : privateKey;
    query += `&Signature=${enc(sign('RSA-SHA256', Buffer.from(query), key).toString('base64'))}`;
  }
  return `${sloUrl}?${query}`;
}

/** A page that posts a LogoutRequest (POST binding: the XML signed) to the platform. */
function logoutForm(username) {
  const xml = logoutRequestXml(username);
  const request = Buffer.from(mode === 'unsigned' ? xml : signed(xml, 'LogoutRequest'));
  return `<form method="post" action="${esc(sloUrl)}">
    <input type="hidden" name="SAMLRequest" value="${request.toString('base64')}" />
    <input type="hidden" name="RelayState" value="from-the-idp" />
    <button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`;
}

const readBody = async (req) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
};
const page = (res, body, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="en"><title>Test SAML provider</title><main>${body}</main></html>`,
  );
};

/** The AuthnRequest (deflated, base64): its ID and where it wants the Response. */
function readRequest(url) {
  const xml = inflateRawSync(
    Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64'),
  ).toString();
  return {
    id: /\sID="([^"]+)"/.exec(xml)?.[1],
    acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1],
    issuer: /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1],
  };
}

async function handle(req, res) {
  const url = new URL(req.url, base);
  const [, first, second] = url.pathname.split('/');
  if (first === 'sso') {
    const request = readRequest(url);
    if (!request.id || request.acs !== acsUrl || request.issuer !== spEntityId)
      return page(res, `<p>Unknown service provider</p>`, 400);
    const uid = id();
    requests.set(uid, { requestId: request.id, relayState: url.searchParams.get('RelayState') });
    return page(
      res,
      `<h1>Test SAML provider</h1><form method="post" action="/login/${uid}">
      <label for="u">Username</label><input id="u" name="username" />
      <button type="submit">Sign in</button></form>`,
    );
  }
  if (first === 'login' && req.method === 'POST') {
    const pending = requests.get(second);
    requests.delete(second);
    if (!pending) return page(res, '<p>No sign-in under way</p>', 400);
    const username = new URLSearchParams(await readBody(req)).get('username');
    const relay = pending.relayState
      ? `<input type="hidden" name="RelayState" value="${esc(pending.relayState)}" />`
      : '';
    // An IdP's page posts the Response to the ACS at once (HTTP-POST binding).
    return page(
      res,
      `<form method="post" action="${esc(acsUrl)}">
      <input type="hidden" name="SAMLResponse" value="${responseFor(username, pending.requestId)}" />${relay}
      <button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
    );
  }
  if (first === 'logout') {
    const username = url.searchParams.get('username');
    if (url.searchParams.get('binding') === 'post') return page(res, logoutForm(username));
    res.writeHead(302, { location: logoutRedirect(username) });
    return res.end();
  }
  if (first === 'slo-done') {
    const xml = inflateRawSync(
      Buffer.from(url.searchParams.get('SAMLResponse') ?? '', 'base64'),
    ).toString();
    const status = /StatusCode Value="([^"]+)"/.exec(xml)?.[1];
    return page(
      res,
      `<h1>Signed out</h1><p>Status: ${esc(status)}; relay state ${esc(url.searchParams.get('RelayState'))}</p>`,
    );
  }
  if (first === '__control' && req.method === 'POST') {
    const body = JSON.parse((await readBody(req)) || '{}');
    if (second === 'account') accounts.set(body.username, body.attributes);
    if (second === 'mode') mode = body.mode ?? null;
    return res.writeHead(204).end();
  }
  res.writeHead(404).end();
}

server.on('request', (req, res) => {
  handle(req, res).catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error.message));
  });
});
process.stdout.write(
  `${JSON.stringify({ entityId, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo-done`, certificate })}\n`,
);
