import { createInterface } from 'node:readline';
import { ADMIN_USAGE } from '../cli-usage';
import type { Config } from '../config';
import type { Database } from '../db';
import { ADMINISTRATORS_GROUP_ID } from '../domain';
import { createGroupsRepository, createMembershipsService } from '../groups';
import { createLoginsRepository } from '../logins';
import { createKasmsRepository, endUserAccess } from '../sessions';
import { createUsersRepository, createUsersService } from '../users';

interface AdminIo {
  out: (line: string) => void;
  database: Database;
  config: Config;
  baseUrl: string;
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
    users: createUsersRepository(database),
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
  { out, database, config, baseUrl }: AdminIo,
): Promise<void> {
  const [verb, username] = args;
  if (verb !== 'create' || !username) throw new Error(`Usage:\n${ADMIN_USAGE}`);
  const { users, memberships } = usersOf(database, config);
  const existing = await users.account({ username });
  if (!existing) {
    await users.create({ username, password: password ?? (await askPassword()) });
    out(`User "${username}" created.`);
  } else if (password !== undefined) {
    await users.update({ username, password });
    out(`User "${username}" has a new password.`);
  }
  const target = { user: { username }, groupId: ADMINISTRATORS_GROUP_ID };
  await memberships.add(target).then(
    () => out(`"${username}" is now in Administrators (global_admin).`),
    (error: { code?: string }) => {
      if (error.code !== 'USER_ALREADY_IN_GROUP') throw error;
      out(`"${username}" was already in Administrators.`);
    },
  );
  out(`Sign in at ${baseUrl}/admin`);
}
