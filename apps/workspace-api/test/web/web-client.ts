import type { LightMyRequestResponse } from 'fastify';
import type { Harness } from '../harness';

/** A browser, as far as inject goes: it keeps cookies and reads a form's CSRF token from pages. */
export interface WebClient {
  cookies: Map<string, string>;
  get: (url: string) => Promise<LightMyRequestResponse>;
  post: (url: string, form?: Record<string, string>) => Promise<LightMyRequestResponse>;
  /** The `_csrf` value in the last page this client got. */
  csrf: () => string;
}

export function webClient(h: Harness, headers: Record<string, string> = {}): WebClient {
  const cookies = new Map<string, string>();
  let lastPage = '';
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies as { name: string; value: string; expires?: Date }[]) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) cookies.delete(c.name);
      else cookies.set(c.name, c.value);
    }
    if (String(res.headers['content-type']).startsWith('text/html')) lastPage = res.body;
    return res;
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const client: WebClient = {
    cookies,
    get: async (url) =>
      remember(await h.inject({ method: 'GET', url, headers: { ...headers, cookie: cookie() } })),
    post: async (url, form = {}) =>
      remember(
        await h.inject({
          method: 'POST',
          url,
          headers: {
            ...headers,
            cookie: cookie(),
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: new URLSearchParams(form).toString(),
        }),
      ),
    csrf: () => {
      const match = /name="_csrf" value="([^"]+)"/.exec(lastPage);
      if (!match) throw new Error('no CSRF token on the last page');
      return match[1];
    },
  };
  return client;
}

/** Signs the client in through the page's form; answers the response to the form post. */
export async function signIn(client: WebClient, username: string, password: string) {
  await client.get('/');
  return client.post('/sign-in', { username, password, _csrf: client.csrf() });
}
