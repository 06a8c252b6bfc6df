import { qualified, type EventInsertSql } from '../db';

/**
 * The event insert a write statement carries (db/audit-recorder.ts): a successful API write's
 * event in the write's own statement, so that it exists exactly when the change does. Its
 * parameters, from `from` on, are the recorder's `claim()`: id, actor kind, id and name, channel,
 * operation, target type, client address and user agent (already clipped to their columns).
 */
export const eventInsertIn =
  (schema: string): EventInsertSql =>
  ({ from, source, targetId, before, after }) => {
    const p = (n: number) => `$${from + n}`;
    return `INSERT INTO ${qualified(schema, 'audit_event')}
        (id, actor_kind, actor_id, actor_name, channel, operation, target_type, target_id,
         client_ip, user_agent, result, status, before, after)
      SELECT ${p(0)}::uuid, ${p(1)}::text, ${p(2)}::text, ${p(3)}::text, ${p(4)}::text,
        ${p(5)}::text, ${p(6)}::text, ${targetId}, ${p(7)}::text, ${p(8)}::text, 'success', 200,
        ${before}, ${after}
      FROM ${source} WHERE ${p(0)}::uuid IS NOT NULL`;
  };
