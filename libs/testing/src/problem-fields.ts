import type { LightMyRequestResponse } from 'fastify';

/** The fields a problem+json answer names in `errors`, sorted: what a 400 says is wrong. */
export function problemFields(res: LightMyRequestResponse): string[] {
  const errors = (res.json() as { errors?: { field: string }[] }).errors ?? [];
  return errors.map((e) => e.field).sort();
}
