import {
  expiryProblem,
  isTokenScope,
  MAX_TOKEN_LIFETIME_DAYS,
  parseExpiry,
  scopeAllows,
  tokenState,
} from './token-rules';

const NOW = new Date('2026-01-10T12:00:00.000Z');
const DAY = 86_400_000;

describe('scopeAllows', () => {
  it.each([
    ['write', 'write', true],
    ['write', 'read', true],
    ['read', 'read', true],
    ['read', 'write', false],
    ['admin', 'read', false],
    ['', 'read', false],
  ] as const)('scope %s on a %s route: %s', (scope, access, allowed) => {
    expect(scopeAllows(scope, access)).toBe(allowed);
  });
});

describe('isTokenScope', () => {
  it('accepts read and write only', () => {
    expect(['read', 'write', 'Read', 'admin', ''].filter(isTokenScope)).toEqual(['read', 'write']);
  });
});

describe('parseExpiry', () => {
  it.each([
    ['1d', new Date(NOW.getTime() + DAY)],
    ['30d', new Date(NOW.getTime() + 30 * DAY)],
    ['2026-06-30', new Date('2026-06-30T00:00:00.000Z')],
    ['2024-02-29', new Date('2024-02-29T00:00:00.000Z')],
    ['2026-06-30T12:00Z', new Date('2026-06-30T12:00:00.000Z')],
    ['2026-06-30T12:00:30Z', new Date('2026-06-30T12:00:30.000Z')],
    ['2026-06-30T12:00:30.5+02:00', new Date('2026-06-30T10:00:30.500Z')],
  ])('reads %s', (text, expected) => {
    expect(parseExpiry(text, NOW)).toEqual(expected);
  });

  it.each([
    '',
    '0d',
    '30',
    '30 d',
    '-3d',
    '12345d',
    'tomorrow',
    '2025-02-30',
    '2026-13-01',
    '2026-6-30',
    '2026-06-30T12:00',
    '2026-02-30T12:00:00Z',
    '2026-06-30T25:00:00Z',
    '2026-06-30 12:00:00Z',
  ])('refuses %j with the accepted forms', (text) => {
    expect(() => parseExpiry(text, NOW)).toThrow(/give days \(30d\), a date .* or an instant/);
  });
});

describe('expiryProblem', () => {
  it('accepts an instant in the future up to the longest lifetime', () => {
    expect(expiryProblem(new Date(NOW.getTime() + 1), NOW)).toBeNull();
    expect(expiryProblem(new Date(NOW.getTime() + MAX_TOKEN_LIFETIME_DAYS * DAY), NOW)).toBeNull();
  });

  it('refuses now, the past, beyond the longest lifetime and an invalid instant', () => {
    expect(expiryProblem(NOW, NOW)).toMatch(/future/);
    expect(expiryProblem(new Date('2020-01-01T00:00:00Z'), NOW)).toMatch(/future/);
    expect(expiryProblem(new Date(NOW.getTime() + MAX_TOKEN_LIFETIME_DAYS * DAY + 1), NOW)).toBe(
      `The expiry must be at most ${MAX_TOKEN_LIFETIME_DAYS} days away`,
    );
    expect(expiryProblem(new Date(Number.NaN), NOW)).toMatch(/not a valid instant/);
  });
});

describe('tokenState', () => {
  const later = new Date(NOW.getTime() + 1);
  const earlier = new Date(NOW.getTime() - 1);
  it.each([
    [null, null, 'active'],
    [null, later, 'active'],
    [null, NOW, 'expired'],
    [null, earlier, 'expired'],
    [earlier, null, 'revoked'],
    [earlier, earlier, 'revoked'],
  ] as const)('revoked %s, expires %s: %s', (revokedAt, expiresAt, state) => {
    expect(tokenState({ revokedAt, expiresAt }, NOW)).toBe(state);
  });
});
