import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers for one path: a body (200), a status with a body, or a handler of its own. */
export type Route =
  | string
  | { status: number; body?: string }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface RegistryServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Replaces what the server answers under `prefix` (e.g. `/valid`), leaving other prefixes as they are. */
  serve: (prefix: string, files: Record<string, Route>) => void;
  close: () => Promise<void>;
}

/** A registry's files under one prefix: versions.txt and one list.json per version. */
export function registryFiles(
  versions: string,
  lists: Record<string, unknown>,
): Record<string, Route> {
  const files: Record<string, Route> = { 'versions.txt': versions };
  for (const [version, list] of Object.entries(lists)) {
    files[`${version}/list.json`] = typeof list === 'string' ? list : JSON.stringify(list);
  }
  return files;
}

/** A real HTTP server on 127.0.0.1 and a free port, serving registries to the app under test. */
export async function startRegistryServer(): Promise<RegistryServer> {
  const routes = new Map<string, Route>();
  const server = http.createServer((req, res) => {
    const route = routes.get((req.url ?? '/').split('?')[0]);
    if (typeof route === 'function') return route(req, res);
    if (route === undefined)
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const { status, body } = typeof route === 'string' ? { status: 200, body: route } : route;
    return res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    serve: (prefix, files) => {
      for (const key of [...routes.keys()].filter((k) => k.startsWith(`${prefix}/`)))
        routes.delete(key);
      for (const [file, route] of Object.entries(files)) routes.set(`${prefix}/${file}`, route);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
