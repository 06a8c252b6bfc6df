/**
 * Names for Prisma's statements, so that `pg` prepares each distinct SQL text once per connection
 * instead of having Postgres parse and plan it on every execution. Prisma's SQL passes values as
 * parameters, so the distinct texts are few; past `limit` of them (a query shape built from input,
 * such as an IN list of varying length), further texts run unnamed, keeping each connection's
 * prepared statements bounded. Needs a session, not a transaction-mode pooler (like migrations).
 */
export function statementNames(limit = 500): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < limit) {
      name = `s${names.size}`;
      names.set(sql, name);
    }
    // An empty name makes pg run the statement unnamed (parsed and planned each time).
    return name ?? '';
  };
}
