import { createInterface } from 'node:readline';
import { ADMIN_USAGE } from '../cli-usage';
import type { Config } from '../config';
import type { Database } from '../db';
import { ADMINISTRATORS_GROUP_ID } from '../domain';
import { createGroupsRepository, createMembershipsService } from '../groups';
import { createLoginsRepository } from '../logins';
import { type AuditedChange, createAuditRepository, eventInsertIn } from '../audit';
import { createKasmsRepository, endUserAccess } from '../sessions';
import { createUsersRepository, createUsersService, toUserResponse } from '../users';

interface AdminIo {
  out: (line: string) => void;
  database: Database;
  config: Config;
  baseUrl: string;
  /** The host's audit trail: each write of the command is recorded (a new administrator above all). */
  record: (change: AuditedChange) => Promise<void>;
}

/** Asks for a password on the terminal without echoing it; reads one line from a pipe. */
async function askPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (s: string) => void };
  const question = new Promise<string>((resolve) => rl.question('Password: ', resolve));
  muted._writeToOutput = (s: string) => {
    if (s.startsWith('Password: ')) process.stdout.write('Password: ');
  };
  const answer = await question;
  rl.close();
  process.stdout.write('\n');
  return answer;
}

function usersOf(database: Database, config: Config) {
  const groups = createGroupsRepository(database);
  const users = createUsersService({
    users: createUsersRepository(database, eventInsertIn(database.schema)),
    config,
    // The command neither deletes users nor ends their sessions.
    sessions: {
      countLive: () => Promise.resolve(0),
      destroyAllOf: () => Promise.resolve(),
    },
    logins: createLoginsRepository(database),
    memberships: groups,
    // A new password ends the user's grants and links in the database; the servers' caches and
    // WebSockets follow within seconds (their admissions are checked again).
    onRevoked: async (userId) =>
      void (await endUserAccess(createKasmsRepository(database), userId)),
  });
  return { users, groups, memberships: createMembershipsService({ groups, users }) };
}

/** Whether anyone belongs to Administrators (setup says how to make the first one otherwise). */
export async function hasAdministrator(database: Database): Promise<boolean> {
  return (await createGroupsRepository(database).countMembers(ADMINISTRATORS_GROUP_ID)) > 0;
}

/** `admin create <username>`: the same users and memberships services the API calls. */
export async function runAdminCommand(
  args: string[],
  password: string | undefined,
  { out, database, config, baseUrl, record }: AdminIo,
): Promise<void> {
  const [verb, username] = args;
  if (verb !== 'create' || !username) throw new Error(`Usage:\n${ADMIN_USAGE}`);
  const { users, memberships } = usersOf(database, config);
  const snapshot = async () => toUserResponse(await users.find({ username }));
  const userChange = async (operation: string, before: object | null) => {
    const after = await snapshot();
    await record({ operation, target: { type: 'user', id: after.user_id }, before, after });
  };
  const existing = await users.account({ username });
  if (!existing) {
    await users.create({ username, password: password ?? (await askPassword()) });
    await userChange('create_user', null);
    out(`User "${username}" created.`);
    const { username: stored } = await snapshot();
    if (await createAuditRepository(database).usernameDeleted(stored)) {
      out(
        `A user named "${stored}" was deleted before; their profile folders were kept and go to this user wherever a profile path holds {username} (move them aside under PROFILE_ROOT if this is someone else).`,
      );
    }
  } else if (password !== undefined) {
    const before = await snapshot();
    await users.update({ username, password });
    await userChange('update_user', before);
    out(`User "${username}" has a new password.`);
  }
  const target = { user: { username }, groupId: ADMINISTRATORS_GROUP_ID };
  const before = await snapshot();
  await memberships.add(target).then(
    async () => {
      await userChange('add_user_group', before);
      out(`"${username}" is now in Administrators (global_admin).`);
    },
    (error: { code?: string }) => {
      if (error.code !== 'USER_ALREADY_IN_GROUP') throw error;
      out(`"${username}" was already in Administrators.`);
    },
  );
  out(`Sign in at ${baseUrl}/admin`);
}
