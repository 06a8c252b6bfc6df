import { Type } from '@sinclair/typebox';
import { parseEnv, publicBaseUrl, serviceEnv } from './env';

const Schema = Type.Object(serviceEnv({ port: 3001, schema: 'workspace' }));
const load = (env: Record<string, string>) =>
  parseEnv(Schema, { DATABASE_URL: 'postgres://localhost/x', ...env });

describe('publicBaseUrl', () => {
  it('is localhost on the port the service listens on when PUBLIC_URL is unset', () => {
    expect(publicBaseUrl(load({}))).toBe('http://localhost:3001');
    expect(publicBaseUrl(load({ PORT: '4123' }))).toBe('http://localhost:4123');
  });

  it('is PUBLIC_URL when set, without a trailing slash', () => {
    const config = load({ PORT: '3001', PUBLIC_URL: 'https://desk.example.com/api/' });
    expect(publicBaseUrl(config)).toBe('https://desk.example.com/api');
  });

  it('refuses a PUBLIC_URL that is not an http(s) address', () => {
    expect(() => load({ PUBLIC_URL: 'localhost:3001' })).toThrow(/PUBLIC_URL/);
    expect(() => load({ PUBLIC_URL: 'http://a b' })).toThrow(/PUBLIC_URL/);
  });
});
