import type { RouteAccess } from '../tokens';

export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a request with this method needs of a token on a route that declares `declared`. Every
 * method that is not a read needs write, so a new route that changes state is a writers' route
 * without anyone remembering to say so; declaring such a route `read` is a mistake, refused when
 * the route is registered. A read route may ask for write (it shows what only writers may see).
 */
export function routeAccess(method: string, declared: RouteAccess | undefined): RouteAccess {
  if (READ_METHODS.has(method)) return declared ?? 'read';
  if (declared === 'read') {
    throw new Error(`A ${method} route changes state: it cannot be declared access "read"`);
  }
  return 'write';
}
