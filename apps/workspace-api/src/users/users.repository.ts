import {
  qualified,
  runRecorded,
  runStatement,
  type AuditedTransaction,
  type AuditRecorder,
  type Database,
  type EventInsertSql,
  type Statement,
  type Tx,
} from '../db';
import type { UserRow } from './user-row';
import {
  encodeCursor,
  listUsersStatement,
  usersBatchStatement,
  type UsersPageQuery,
  type UsersSelection,
} from './users-list.sql';
import { userColumns, userStatements, type UserChange } from './users.sql';

export type { UserChange } from './users.sql';
export type NewUser = Required<Omit<UserChange, 'passwordHash'>> & {
  passwordHash: string | null;
  /** Where the account comes from: `local` (the default), or an identity provider's kind. */
  realm?: string;
};

export interface UsersPage {
  users: UserRow[];
  total: number;
  nextCursor: string | null;
}

/** What a sign-in checks of an account besides its password. */
export interface UserAccount {
  id: string;
  username: string;
  locked: boolean;
  disabled: boolean;
  passwordSetDate: Date | null;
}

/** A session's owner as the sessions feature sees them. */
export interface SessionOwner {
  username: string;
  active: boolean;
}

/** What a password sign-in checks; never leaves the users and logins services. */
export interface UserCredentials {
  id: string;
  passwordHash: string | null;
  locked: boolean;
  disabled: boolean;
}

/**
 * Every query of users (`user`). Memberships and groups are the groups repository's; a user's
 * row shows its groups through userColumns, and inGroup filters by membership (both say why).
 * Hot statements run prepared on the pool (users.sql.ts); the rest through Prisma. A taken
 * username fails with a unique violation (isUniqueViolation), whichever way it ran.
 */
export function createUsersRepository(database: Database, eventInsert: EventInsertSql) {
  const { schema, prisma } = database;
  const statements = userStatements(schema, eventInsert);
  const rows = (statement: Statement, tx?: Tx) => runStatement<UserRow>(database, statement, tx);
  const one = async (statement: Statement, tx?: Tx) => (await rows(statement, tx))[0] ?? null;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);

  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    findById: (id: string, tx?: Tx) => one(statements.find({ id }), tx),
    findByUsername: (username: string) => one(statements.find({ username })),

    /** Null when no user has the id. With `audit`, the statement records the change. */
    update: (id: string, change: UserChange, tx?: Tx, audit?: AuditRecorder | null) =>
      runRecorded(audit, tx, (event) => one(statements.update(id, change, event), tx)),

    /** The new user's id. */
    async create(user: NewUser, tx: Tx): Promise<string> {
      const { id } = await tx.user.create({
        data: { ...user, passwordSetDate: user.passwordHash ? new Date() : null },
        select: { id: true },
      });
      return id;
    },

    /** Memberships, login sessions and history go with the row (foreign keys cascade). */
    async remove(id: string, tx?: Tx): Promise<boolean> {
      return (await (tx ?? prisma).user.deleteMany({ where: { id } })).count > 0;
    },

    async page(query: UsersPageQuery): Promise<UsersPage> {
      const found = await runStatement<UserRow & { total: number }>(
        database,
        listUsersStatement(schema, query),
      );
      const total = found[0]?.total ?? 0;
      const users = found.filter((row) => row.id !== null);
      const last = users.at(-1);
      const full = last !== undefined && users.length === query.page_size;
      return { users, total, nextCursor: full ? encodeCursor(query, last) : null };
    },

    /** Every user of a selection, `size` at a time, each batch one keyset range scan. */
    async *batches(selection: UsersSelection, size: number): AsyncGenerator<UserRow[]> {
      let cursor: string | null = null;
      for (;;) {
        const batch = await rows(usersBatchStatement(schema, selection, cursor, size));
        if (batch.length > 0) yield batch;
        if (batch.length < size) return;
        cursor = encodeCursor(selection, batch[batch.length - 1]);
      }
    },

    /**
     * A group's members by username, one page. Paging users in username order by a membership
     * needs user_group (the groups repository's) in the same statement; composing it would
     * send every member's id, 100k of them for All Users, for each page.
     */
    inGroup: (groupId: string, page: number, pageSize: number) =>
      rows({
        name: 'users_in_group',
        text: `SELECT ${userColumns(schema)} FROM ${qualified(schema, 'user')} u
               WHERE u.id IN (SELECT m.user_id FROM ${qualified(schema, 'user_group')} m
                              WHERE m.group_id = $1::uuid)
               ORDER BY u.username OFFSET $2::int LIMIT $3::int`,
        values: [groupId, page * pageSize, pageSize],
      }),

    async credentialsOf(username: string): Promise<UserCredentials | null> {
      return prisma.user.findUnique({
        where: { username },
        select: { id: true, passwordHash: true, locked: true, disabled: true },
      });
    },

    /** These users' names, by id. */
    /** Each user's name, and whether they may enter their sessions (neither locked nor disabled). */
    async ownersOf(ids: readonly string[]): Promise<Map<string, SessionOwner>> {
      const rows = await prisma.user.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, username: true, locked: true, disabled: true },
      });
      return new Map(
        rows.map((user) => [
          user.id,
          { username: user.username, active: !user.locked && !user.disabled },
        ]),
      );
    },

    account: (where: { id: string } | { username: string }): Promise<UserAccount | null> =>
      prisma.user.findUnique({
        where,
        select: { id: true, username: true, locked: true, disabled: true, passwordSetDate: true },
      }),

    async recordFailedLogin(id: string, lockAt: number): Promise<void> {
      await runStatement(database, statements.failedLogin(id, lockAt));
    },

    recordSignIn: (id: string, tx?: Tx) => one(statements.signedIn(id), tx),

    /**
     * Locks the user's row until `tx` ends, which serializes the user's session launches on
     * every replica. False when no user has the id.
     */
    async lockForLaunch(tx: Tx, id: string): Promise<boolean> {
      const found = await runStatement(
        database,
        {
          text: `SELECT id FROM ${qualified(schema, 'user')} WHERE id = $1::uuid FOR UPDATE`,
          values: [id],
        },
        tx,
      );
      return found.length > 0;
    },

    /**
     * The users named, and those with the ids given, by username (the settings file's users). A
     * union of two index-driven reads.
     */
    namedOrIn: (usernames: readonly string[], ids: readonly string[], tx: Tx) =>
      runStatement<{ id: string; username: string }>(
        database,
        {
          text: `SELECT id, username FROM ${qualified(schema, 'user')} WHERE username = ANY($1::text[])
                 UNION
                 SELECT id, username FROM ${qualified(schema, 'user')} WHERE id = ANY($2::uuid[])
                 ORDER BY username`,
          values: [usernames, ids],
        },
        tx,
      ),

    exists: async (id: string): Promise<boolean> =>
      (await prisma.user.findUnique({ where: { id }, select: { id: true } })) !== null,
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
