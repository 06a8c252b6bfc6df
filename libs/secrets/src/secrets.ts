import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 of a high-entropy machine secret (API key secret, bearer token, session token).
 * A fast hash is right here: these secrets carry 256 random bits, so there is nothing to
 * brute-force, and a slow hash would cost every request. User passwords use bcrypt instead.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** `bytes` random bytes from the CSPRNG, base64url-encoded. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
