/** The keys of T whose values are V (optional ones included). */
type KeysOf<T, V> = { [K in keyof T]-?: Exclude<T[K], undefined> extends V ? K : never }[keyof T] &
  string;

/**
 * A policy switch of a workspace or a group: its name on the API (and in the settings file), its
 * row's column, its default, and what it lets through, as a form's checkbox says it.
 */
export interface PolicySwitch<Input, Row> {
  field: KeysOf<Input, boolean>;
  column: KeysOf<Row, boolean>;
  default: boolean;
  label: string;
}

/** A policy limit in bytes: null (or an empty form field) is no limit. */
export interface PolicyLimit<Input, Row> {
  field: KeysOf<Input, number | null>;
  column: KeysOf<Row, number | bigint | null>;
  label: string;
  minimum: number;
  maximum: number;
}

/** The values of a table's fields, by column: switches true or false, limits a number or null. */
export type PolicyValues<
  Switches extends readonly { column: string }[],
  Limits extends readonly { column: string }[] = [],
> = { [C in Switches[number]['column']]: boolean } & {
  [C in Limits[number]['column']]: number | null;
};

/** Every field of the tables at its default: switches as the table says, limits none. */
export function policyDefaults<
  S extends readonly { column: string; default: boolean }[],
  L extends readonly { column: string }[] = [],
>(switches: S, limits?: L): PolicyValues<S, L> {
  return Object.fromEntries([
    ...switches.map((s) => [s.column, s.default]),
    ...(limits ?? []).map((l) => [l.column, null]),
  ]) as PolicyValues<S, L>;
}

/**
 * A row's values of the tables' columns, limits as numbers (a bigint column holds at most
 * 2^53 - 1 here: the API's schema refuses more).
 */
export function policyOfRow(
  row: object,
  fields: readonly { column: string }[],
): Record<string, boolean | number | null> {
  const values = row as Record<string, unknown>;
  return Object.fromEntries(
    fields.map(({ column }) => {
      const value = values[column];
      return [column, typeof value === 'boolean' || value === null ? value : Number(value)];
    }),
  );
}
