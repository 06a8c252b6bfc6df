import type { FieldProblem } from '@platform/errors';

/**
 * Text no part of a request may carry: U+0000 (PostgreSQL stores it in neither text nor jsonb)
 * and unpaired UTF-16 surrogates (no character at all; they would be stored as U+FFFD).
 */
export function isBadText(value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed();
}

const BAD_TEXT_MESSAGE = 'must not contain the NUL character or an invalid Unicode code point';

/**
 * Whether any string or object key of a parsed value holds bad text: the check every request
 * gets, without building field names (`badTextFields` says where, once something is found).
 */
export function holdsBadText(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (isBadText(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        if (isBadText(key)) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * Where the strings (and object keys) of a parsed value hold bad text, as dotted fields under
 * `root`. Iterative, because a client decides how deep its JSON nests; stops at the first few.
 */
export function badTextFields(root: unknown, rootField: string, limit = 10): FieldProblem[] {
  const found: FieldProblem[] = [];
  const pending: [unknown, string][] = [[root, rootField]];
  while (pending.length > 0 && found.length < limit) {
    const [value, field] = pending.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (isBadText(value)) found.push({ field: field || 'body', message: BAD_TEXT_MESSAGE });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, sub] of Object.entries(value)) {
        const at = field ? `${field}.${key}` : key;
        if (isBadText(key)) found.push({ field: at, message: `its name ${BAD_TEXT_MESSAGE}` });
        else pending.push([sub, at]);
      }
    }
  }
  return found;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The problem with Basic credentials whose decoded text is not clean UTF-8, if any. */
export function badBasicCredentials(authorization: string | undefined): FieldProblem | null {
  const match = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  let decoded: string;
  try {
    decoded = strictUtf8.decode(Buffer.from(match[1], 'base64'));
  } catch {
    return { field: 'headers.authorization', message: 'Basic credentials must be UTF-8 text' };
  }
  return isBadText(decoded)
    ? { field: 'headers.authorization', message: `Basic credentials ${BAD_TEXT_MESSAGE}` }
    : null;
}
