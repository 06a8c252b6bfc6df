import { ValidationFailedError, withFieldErrors } from '@platform/errors';

const invalid = (field: string, message: string) =>
  withFieldErrors(new ValidationFailedError('The form is not valid'), [{ field, message }]);

/**
 * A number typed into a form field, within [min, max] (the bounds the API operation's schema
 * sets); `whole` refuses fractions. Anything else is a 400 naming the field, as the API's is.
 */
export function numberIn(
  text: string | undefined,
  field: string,
  { min, max, whole = false }: { min: number; max: number; whole?: boolean },
): number {
  const trimmed = text?.trim() ?? '';
  const value = Number(trimmed);
  const pattern = whole ? /^\d{1,16}$/ : /^\d{1,16}(\.\d{1,6})?$/;
  if (!pattern.test(trimmed) || !Number.isFinite(value))
    throw invalid(field, `must be a ${whole ? 'whole ' : ''}number`);
  if (value < min || value > max) throw invalid(field, `must be from ${min} to ${max}`);
  return value;
}

/** Agents' memory overrides are typed in MiB; the API counts bytes. */
export const MIB = 1024 * 1024;
