import { Type, type Static } from '@sinclair/typebox';

/** RFC 9457 problem details, plus `code` and Kasm's `error_message`. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable SCREAMING_SNAKE identifier' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
    ),
    error_message: Type.String({ description: 'Same as detail; read by Kasm clients' }),
  },
  { description: 'RFC 9457 problem details' },
);
export type Problem = Static<typeof ProblemSchema>;

/** Response schemas for the listed error statuses, all rendered as problem details. */
export function problemResponses(...statuses: number[]): Record<number, typeof ProblemSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ProblemSchema]));
}
