import { createHash } from 'node:crypto';

/** Keys whose values never reach the audit trail, whatever entity they are part of. */
const SECRET_KEY = /password|secret|hash|token|private|credential|^api_key$/i;
/** Longer strings are kept as their length and digest, not their text. */
export const MAX_AUDIT_STRING = 4096;
/**
 * Fields kept as their length and digest whatever their size: a file mapping's content (a script,
 * often with credentials in it) is the mapping's business, not the trail readers'.
 */
const DIGEST_KEY = /^content$/;

export const REDACTED = '[redacted]';

function digestOf(value: string): string {
  const digest = createHash('sha256').update(value).digest('hex');
  return `[${value.length} characters, sha256 ${digest}]`;
}

/**
 * A JSON-safe copy of `value` with every secret-looking field replaced by REDACTED and every long
 * string (and every `content`) by its length and SHA-256. The snapshots are wire forms, which already leave secrets
 * out; this is the second line, for a field a mapper may add one day.
 */
export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length <= MAX_AUDIT_STRING ? value : digestOf(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [
        key,
        field === null || field === undefined
          ? null
          : SECRET_KEY.test(key)
            ? REDACTED
            : DIGEST_KEY.test(key) && typeof field === 'string'
              ? digestOf(field)
              : redact(field),
      ]),
    );
  }
  return typeof value === 'function' || typeof value === 'symbol' ? null : value;
}
