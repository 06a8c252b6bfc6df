import { hashSecret, randomSecret, secretMatches } from './secrets';

describe('secrets', () => {
  it('hashes to 64 hex characters, deterministically', () => {
    expect(hashSecret('abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret('abc')).toBe(hashSecret('abc'));
  });

  it('matches the secret that produced the hash and nothing else', () => {
    const stored = hashSecret('right');
    expect(secretMatches('right', stored)).toBe(true);
    expect(secretMatches('wrong', stored)).toBe(false);
    expect(secretMatches('right', 'not-a-hash')).toBe(false);
  });

  it('makes distinct random secrets of the requested size', () => {
    const a = randomSecret(32);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(randomSecret(32));
  });
});
