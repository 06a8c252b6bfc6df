import { takeCredentials } from './credentials';

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('takeCredentials', () => {
  it('reads the body fields and removes them from the body', () => {
    const body: Record<string, unknown> = { api_key: 'k', api_key_secret: 's', target_user: {} };
    expect(takeCredentials(body, {})).toEqual({ key: 'k', secret: 's' });
    expect(body).toEqual({ target_user: {} });
  });

  it('prefers the body over headers and Basic auth', () => {
    const headers = { 'api-key': 'hk', 'api-key-secret': 'hs', authorization: basic('bk:bs') };
    expect(takeCredentials({ api_key: 'k', api_key_secret: 's' }, headers)).toEqual({
      key: 'k',
      secret: 's',
    });
  });

  it('prefers the api-key headers over Basic auth', () => {
    const headers = { 'api-key': 'hk', 'api-key-secret': 'hs', authorization: basic('bk:bs') };
    expect(takeCredentials({}, headers)).toEqual({ key: 'hk', secret: 'hs' });
  });

  it('reads Basic auth, keeping colons inside the secret', () => {
    expect(takeCredentials(undefined, { authorization: basic('bk:b:s') })).toEqual({
      key: 'bk',
      secret: 'b:s',
    });
  });

  it('treats a key without a secret as given, with an empty secret', () => {
    expect(takeCredentials({ api_key: 'k' }, { 'api-key-secret': 'hs' })).toEqual({
      key: 'k',
      secret: '',
    });
  });

  it('turns non-string body credentials into empty strings', () => {
    expect(takeCredentials({ api_key: 5, api_key_secret: null }, {})).toEqual({
      key: '',
      secret: '',
    });
  });

  it('returns null when no credentials are present', () => {
    expect(takeCredentials({ target_user: {} }, {})).toBeNull();
    expect(takeCredentials({}, { authorization: 'Bearer abc' })).toBeNull();
    expect(takeCredentials({}, { authorization: basic('no-colon') })).toBeNull();
  });
});
