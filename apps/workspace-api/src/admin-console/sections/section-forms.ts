import { Type } from '@sinclair/typebox';
import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { PERMISSIONS, type Permission } from '../../api-keys';

/** `?done=<what>`: the notice a page shows after a form's redirect (post, redirect, get). */
export const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

export const noticeOf = (notices: Record<string, string>, done: string | undefined) =>
  done ? notices[done] : undefined;

/** Where a form sends the browser back to: one of the console's pages, never another site. */
export function backTo(back: string | undefined, fallback: string, done: string): string {
  const page = back && /^\/admin\/[\w/-]*$/.test(back) ? back : fallback;
  return `${page}?done=${done}`;
}

/** A form's ticked checkboxes named `<prefix><permission>`, as permissions of the catalogue. */
export function permissionsIn(body: Record<string, unknown>, prefix = 'permission:'): Permission[] {
  return PERMISSIONS.filter((p) => body[`${prefix}${p}`] !== undefined);
}

/** A checkbox: present (any value) when ticked. */
export const ticked = (value: unknown) => value !== undefined;

/** A form's field that is not valid: a 400 naming it, shown on the console's error page. */
export const formProblem = (field: string, message: string) =>
  withFieldErrors(new ValidationFailedError('The form is not valid'), [{ field, message }]);

/** A whole number typed into a form field; blank is `blank`, anything else a 400 naming it. */
export function wholeNumber<T>(value: string | undefined, field: string, blank: T): number | T {
  const text = value?.trim() ?? '';
  if (text === '') return blank;
  if (!/^-?\d{1,9}$/.test(text)) throw formProblem(field, 'must be a whole number');
  return Number(text);
}
