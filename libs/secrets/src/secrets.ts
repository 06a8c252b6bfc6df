import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 of a high-entropy machine secret (API key secret, bearer token, session token).
 * A fast hash is right here: these secrets carry 256 random bits, so there is nothing to
 * brute-force, and a slow hash would cost every request. User passwords use bcrypt instead.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = hash('sha256', secret, 'buffer');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** `bytes` random bytes from the CSPRNG, base64url-encoded. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
