import { MAX_AUDIT_STRING, redact, REDACTED } from './redact';

describe('redact', () => {
  it('replaces secret-looking fields at any depth and keeps the rest', () => {
    expect(
      redact({
        username: 'ada',
        password: 'Str0ng!pass',
        passwordHash: '$2b$04$x',
        nested: [{ api_key_secret: 's', secretHash: 'h', token: 't', name: 'n' }],
        api_key: 'abc',
        api_key_id: 'id',
      }),
    ).toEqual({
      username: 'ada',
      password: REDACTED,
      passwordHash: REDACTED,
      nested: [{ api_key_secret: REDACTED, secretHash: REDACTED, token: REDACTED, name: 'n' }],
      api_key: REDACTED,
      api_key_id: 'id',
    });
  });

  it('keeps a secret field that holds nothing as null, so that "none set" stays visible', () => {
    expect(redact({ password: null, token: undefined })).toEqual({ password: null, token: null });
  });

  it('keeps a long string as its length and digest only', () => {
    const long = 'x'.repeat(MAX_AUDIT_STRING + 1);
    const kept = redact({ content: long }) as { content: string };
    expect(kept.content).toMatch(/^\[4097 characters, sha256 [0-9a-f]{64}\]$/);
    expect(redact('y'.repeat(MAX_AUDIT_STRING))).toHaveLength(MAX_AUDIT_STRING);
  });

  it("keeps any content (a file mapping's script) as its length and digest only, however short", () => {
    expect(redact({ content: 'export TOKEN=swordfish\n', name: 'Env' })).toEqual({
      content: expect.stringMatching(/^\[23 characters, sha256 [0-9a-f]{64}\]$/),
      name: 'Env',
    });
    expect(redact({ content: '' })).toEqual({
      content: `[0 characters, sha256 ${'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}]`,
    });
  });

  it('turns dates, bigints and undefined into JSON values', () => {
    expect(redact({ at: new Date(0), size: 5n, gone: undefined })).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      size: '5',
      gone: null,
    });
  });
});
