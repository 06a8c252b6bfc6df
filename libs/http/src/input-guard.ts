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
 * Whether `value` is parsed input to look inside: an array, or a dictionary as JSON, query-string,
 * form and router parsers make them: no class anywhere on its prototype chain (Fastify's query
 * and params objects inherit from a prototype-less object). Anything else (a stream, a Buffer, any
 * class instance) is not the client's parsed data: the session proxy's body is the request stream
 * itself, whose object graph is cyclic and reaches the whole server.
 */
function isParsedContainer(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  for (
    let p: object | null = Object.getPrototypeOf(value);
    p !== null;
    p = Object.getPrototypeOf(p)
  ) {
    if (p === Object.prototype) return true;
    if (Object.hasOwn(p, 'constructor')) return false;
  }
  return true;
}

/**
 * Calls `visit` with each string and each object key (as `key`) inside `root` with its dotted
 * field (none when `rootField` is null), until `visit` answers true. Iterative, because a client decides how deep its JSON nests;
 * each container is entered once, so even a cyclic or shared graph is walked in bounded time.
 */
function walkText(
  root: unknown,
  rootField: string | null,
  visit: (text: string, field: string, isKey: boolean) => boolean,
): void {
  if (typeof root === 'string') {
    visit(root, rootField ?? '', false);
    return;
  }
  if (!isParsedContainer(root)) return;
  const seen = new Set<object>([root]);
  const pending: [object, string][] = [[root, rootField ?? '']];
  const enter = (value: unknown, field: string): boolean => {
    if (typeof value === 'string') return visit(value, field, false);
    if (isParsedContainer(value) && !seen.has(value)) {
      seen.add(value);
      pending.push([value, field]);
    }
    return false;
  };
  while (pending.length > 0) {
    const [container, field] = pending.pop() as [object, string];
    // Field names only when asked for: the check every request gets builds none.
    const at = (key: string | number) =>
      rootField === null ? '' : field ? `${field}.${key}` : String(key);
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i += 1) if (enter(container[i], at(i))) return;
    } else {
      for (const key of Object.keys(container)) {
        if (isBadText(key) && visit(key, at(key), true)) return;
        if (enter((container as Record<string, unknown>)[key], at(key))) return;
      }
    }
  }
}

/**
 * Whether any string or object key of a parsed value holds bad text: the check every request
 * gets (`badTextFields` says where, once something is found).
 */
export function holdsBadText(root: unknown): boolean {
  let found = false;
  walkText(root, null, (text) => (found = isBadText(text)));
  return found;
}

/**
 * Where the strings (and object keys) of a parsed value hold bad text, as dotted fields under
 * `root`; stops at the first few.
 */
export function badTextFields(root: unknown, rootField: string, limit = 10): FieldProblem[] {
  const found: FieldProblem[] = [];
  walkText(root, rootField, (text, field, isKey) => {
    if (isKey) found.push({ field, message: `its name ${BAD_TEXT_MESSAGE}` });
    else if (isBadText(text)) found.push({ field: field || 'body', message: BAD_TEXT_MESSAGE });
    return found.length >= limit;
  });
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
