import { apiRoute } from './docker-tracing';

const ID = 'a'.repeat(12) + '0123456789abcdef'.repeat(3) + 'b'.repeat(4);

describe('apiRoute', () => {
  it.each([
    ['/containers/create?', '/containers/create'],
    [`/containers/${ID}/start?`, '/containers/{id}/start'],
    [`/containers/${ID}?force=true`, '/containers/{id}'],
    [`/exec/${ID}/json`, '/exec/{id}/json'],
    ['/images/platform-test/web:1/json', '/images/{name}/json'],
    ['/images/registry.example:5000/team/desktop:1.2/json', '/images/{name}/json'],
    ['/images/create?fromImage=x', '/images/create'],
    ['/info', '/info'],
  ])('names %s as %s', (path, route) => {
    expect(ID).toHaveLength(64);
    expect(apiRoute(path)).toBe(route);
  });
});
