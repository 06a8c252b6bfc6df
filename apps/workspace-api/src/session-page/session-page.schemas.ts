import { Type, type Static } from '@sinclair/typebox';

export const SessionParamsSchema = Type.Object({ kasmId: Type.String({ maxLength: 64 }) });

/** A change's body: JSON only (`{}`), so that no cross-site form can send one. */
export const ChangeBodySchema = Type.Object({}, { additionalProperties: false });

export const SessionStateSchema = Type.Object({
  kasm_id: Type.String(),
  status: Type.String({ description: 'running, or what it became' }),
  expiration_date: Type.String({ format: 'date-time', description: 'When the session ends' }),
  time_left_seconds: Type.Integer({ minimum: 0 }),
});
export type SessionStateResponse = Static<typeof SessionStateSchema>;

export const ChangedSchema = Type.Object({ kasm_id: Type.String(), status: Type.String() });
