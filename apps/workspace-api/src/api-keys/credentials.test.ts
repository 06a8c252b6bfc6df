import { takeCredentials } from './credentials';

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('takeCredentials', () => {
  it('reads the body fields and leaves a body without them', () => {
    const request = { body: { api_key: 'k', api_key_secret: 's', target_user: {} }, headers: {} };
    expect(takeCredentials(request)).toEqual({ key: 'k', secret: 's' });
    expect(request.body).toEqual({ target_user: {} });
  });

  it('leaves a body without credentials as it is', () => {
    const body = { target_user: {} };
    const request = { body, headers: { 'api-key': 'hk', 'api-key-secret': 'hs' } };
    expect(takeCredentials(request)).toEqual({ key: 'hk', secret: 'hs' });
    expect(request.body).toBe(body);
  });

  it('prefers the body over headers and Basic auth', () => {
    const headers = { 'api-key': 'hk', 'api-key-secret': 'hs', authorization: basic('bk:bs') };
    expect(takeCredentials({ body: { api_key: 'k', api_key_secret: 's' }, headers })).toEqual({
      key: 'k',
      secret: 's',
    });
  });

  it('prefers the api-key headers over Basic auth', () => {
    const headers = { 'api-key': 'hk', 'api-key-secret': 'hs', authorization: basic('bk:bs') };
    expect(takeCredentials({ body: {}, headers })).toEqual({ key: 'hk', secret: 'hs' });
  });

  it('reads Basic auth, keeping colons inside the secret', () => {
    expect(
      takeCredentials({ body: undefined, headers: { authorization: basic('bk:b:s') } }),
    ).toEqual({
      key: 'bk',
      secret: 'b:s',
    });
  });

  it('treats a key without a secret as given, with an empty secret', () => {
    expect(
      takeCredentials({ body: { api_key: 'k' }, headers: { 'api-key-secret': 'hs' } }),
    ).toEqual({
      key: 'k',
      secret: '',
    });
  });

  it('turns non-string body credentials into empty strings', () => {
    expect(takeCredentials({ body: { api_key: 5, api_key_secret: null }, headers: {} })).toEqual({
      key: '',
      secret: '',
    });
  });

  it('returns null when no credentials are present', () => {
    expect(takeCredentials({ body: { target_user: {} }, headers: {} })).toBeNull();
    expect(takeCredentials({ body: {}, headers: { authorization: 'Bearer abc' } })).toBeNull();
    expect(takeCredentials({ body: {}, headers: { authorization: basic('no-colon') } })).toBeNull();
  });
});
