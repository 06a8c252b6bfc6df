import { Type } from '@sinclair/typebox';

const UUID_INPUT =
  '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$';

/** An id on the wire: 32 hex characters; the dashed UUID form is accepted on input. */
export const IdSchema = Type.String({
  pattern: UUID_INPUT,
  description: 'UUID, 32 lowercase hex characters (dashed form accepted)',
  examples: ['50faa5439c574b518cd868dac9256e4b'],
});

/** Canonical dashed lower-case UUID, as stored in Postgres. */
export function toUuid(id: string): string {
  const hex = id.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The wire form: 32 lower-case hex characters, no dashes. */
export function toWireId(uuid: string): string {
  return uuid.replace(/-/g, '').toLowerCase();
}
