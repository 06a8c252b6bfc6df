import { randomBytes } from 'node:crypto';
import type { Harness } from '../harness';
import type { WebClient } from '../web/web-client';

/** A multipart/form-data body as a browser sends a form with a file (`files` are uploads). */
export function multipartBody(fields: Record<string, string>, files: Record<string, string> = {}) {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const parts = [
    ...Object.entries(fields).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    ...Object.entries(files).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.yaml"\r\nContent-Type: application/yaml\r\n\r\n${value}\r\n`,
    ),
  ];
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Posts a multipart console form with the client's cookies and the CSRF token of its last page. */
export async function postMultipart(
  h: Harness,
  client: WebClient,
  url: string,
  fields: Record<string, string>,
  files: Record<string, string> = {},
  { csrf = true } = {},
) {
  const { payload, contentType } = multipartBody(
    csrf ? { ...fields, _csrf: client.csrf() } : fields,
    files,
  );
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return h.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': contentType },
    payload,
  });
}
