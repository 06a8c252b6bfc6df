import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createRecordingStore, type RecordingStore } from '../src/session-recording';

/**
 * A local S3-compatible store for tests: s3rver (the S3 REST API on a loopback port, objects in
 * a folder), behind a check of each request's AWS Signature Version 4 under our own secret, which
 * s3rver 3.7 does not make itself (it checks only the access key ID). Stopped and started again
 * on the same port and folder, it keeps its objects: a store that was down and came back.
 */
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET = 'test-store-secret-9f2c1b7e4d';
export const S3_BUCKET = 'recordings';

const enc = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const hmac = (key: Buffer | string, text: string) =>
  createHmac('sha256', key).update(text).digest();

/** Whether `ctx` carries a valid SigV4 Authorization header under S3_SECRET. */
function signatureHolds(ctx: {
  method: string;
  path: string;
  querystring: string;
  headers: Record<string, string | string[] | undefined>;
}): boolean {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      String(ctx.headers.authorization ?? ''),
    );
  if (!auth) return false;
  const [, , scope, signedHeaders, signature] = auth;
  const query = ctx.querystring
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [k, v = ''] = pair.split('=');
      return [enc(decodeURIComponent(k)), enc(decodeURIComponent(v.replace(/\+/g, ' ')))];
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders.split(';');
  const headers = names
    .map(
      (name) =>
        `${name}:${String(ctx.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [
    ctx.method,
    ctx.path,
    query,
    headers,
    signedHeaders,
    String(ctx.headers['x-amz-content-sha256'] ?? ''),
  ].join('\n');
  const date = String(ctx.headers['x-amz-date'] ?? '');
  const toSign = [
    'AWS4-HMAC-SHA256',
    date,
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const key = scope
    .split('/')
    .reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${S3_SECRET}`);
  const expected = hmac(key, toSign);
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export interface TestS3 {
  endpoint: string;
  /** Requests answered, as `METHOD /path?query`. */
  requests: string[];
  /** Stops answering (connections refused) until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** A client of the store of our own, to look at objects as they are (no prefix). */
  client(): RecordingStore;
  /** The store's config for the workspace-api. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const dir = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const requests: string[] = [];
  let port = 0;
  let server: S3rver | null = null;

  async function start(): Promise<void> {
    const s3 = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: S3_BUCKET }],
    });
    s3.middleware.unshift(async (ctx, next) => {
      requests.push(`${ctx.method} ${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      if (!signatureHolds(ctx)) {
        ctx.status = 403;
        ctx.body =
          '<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature does not match</Message></Error>';
        return;
      }
      await next();
    });
    port = (await s3.run()).port;
    server = s3;
  }

  async function stop(): Promise<void> {
    const closing = server?.close();
    server?.httpServer?.closeAllConnections();
    await closing;
    server = null;
  }

  await start();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    stop,
    start,
    client: () =>
      createRecordingStore({
        bucket: S3_BUCKET,
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        accessKeyId: S3_ACCESS_KEY_ID,
        secretAccessKey: S3_SECRET,
        prefix: '',
        pathStyle: true,
        partBytes: 5 * 1024 * 1024,
        retryMs: 1000,
      }),
    env: (extra = {}) => ({
      RECORDINGS_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      RECORDINGS_S3_BUCKET: S3_BUCKET,
      RECORDINGS_S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
      RECORDINGS_S3_SECRET_ACCESS_KEY: S3_SECRET,
      ...extra,
    }),
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
