import { routeAccess } from './route-access';

describe('routeAccess', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'SEARCH', 'PROPFIND'])(
    'makes %s need write, declared or not',
    (method) => {
      expect(routeAccess(method, undefined)).toBe('write');
      expect(routeAccess(method, 'write')).toBe('write');
    },
  );

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses a %s route declared read', (method) => {
    expect(() => routeAccess(method, 'read')).toThrow(
      `A ${method} route changes state: it cannot be declared access "read"`,
    );
  });

  it.each(['GET', 'HEAD', 'OPTIONS'])(
    'lets a %s route need read, or write when it says so',
    (m) => {
      expect(routeAccess(m, undefined)).toBe('read');
      expect(routeAccess(m, 'read')).toBe('read');
      expect(routeAccess(m, 'write')).toBe('write');
    },
  );
});
