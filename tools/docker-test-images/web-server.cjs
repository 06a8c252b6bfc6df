// CMD of platform-test/web:1. Plain Node plus the `ws` package copied beside it in the image.
// GET / is the workspace page, GET /env the environment as JSON, GET /headers the request's
// headers as JSON, GET /set-cookie answers a Set-Cookie for each `c` in its query, any other GET
// echoes its path; a WebSocket upgrade on /headers first sends the upgrade's headers as JSON,
// and on any path echoes every message back. With TLS_PEM (a certificate and key, as Kasm images
// read ~/.vnc/self.pem) it serves HTTPS instead, behind Basic auth kasm_user:$VNC_PW, as they do.
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const { WebSocketServer } = require('ws');

const PORT = Number(process.env.PORT || 8080);
const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>Platform test workspace</title></head>' +
  '<body><h1>platform test workspace</h1></body></html>\n';

const TLS_PEM = process.env.TLS_PEM;
const BASIC = `Basic ${Buffer.from(`kasm_user:${process.env.VNC_PW}`).toString('base64')}`;
/** @param {import('node:http').IncomingMessage} req */
const allowed = (req) => !TLS_PEM || req.headers.authorization === BASIC;

/** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
const handler = (req, res) => {
  const pathname = new URL(req.url ?? '/', 'http://workspace').pathname;
  if (!allowed(req)) {
    res.writeHead(401, { 'www-authenticate': 'Basic realm="workspace"' }).end();
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    res
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
      .end('method not allowed\n');
  } else if (pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  } else if (pathname === '/headers') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
  } else if (pathname === '/set-cookie') {
    const cookies = new URL(req.url ?? '/', 'http://workspace').searchParams.getAll('c');
    res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': cookies }).end('set\n');
  } else if (pathname === '/env') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(process.env));
  } else {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`${pathname}\n`);
  }
};
const server = TLS_PEM
  ? https.createServer({ cert: fs.readFileSync(TLS_PEM), key: fs.readFileSync(TLS_PEM) }, handler)
  : http.createServer(handler);

new WebSocketServer({
  server,
  verifyClient: (/** @type {{ req: import('node:http').IncomingMessage }} */ { req }) =>
    allowed(req),
}).on('connection', (socket, req) => {
  if (req.url === '/headers') socket.send(JSON.stringify(req.headers));
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
});

server.listen(PORT, '0.0.0.0');

// As PID 1 nothing else ends us: without these handlers a stop would wait for SIGKILL.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
