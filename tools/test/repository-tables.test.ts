import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { ROOT } from './support/repo';
import { tablesOfModels, tablesUsedBy } from './support/repository-tables';

// One data layer per service, one repository per resource: each repository (and the raw
// statements beside it, *.sql.ts) queries its own tables. A query that reaches another
// resource's table is either moved to that resource's repository or named below, with why.
const OWN: Record<string, string[]> = {
  'apps/calendar-api/src/chat/slack-inbox.repository.ts': ['slack_inbox'],
  'apps/calendar-api/src/events/events.repository.ts': ['calendar_event'],
  'apps/calendar-api/src/events/events.sql.ts': ['calendar_event'],
  // The SQL function that stores a chat message's events (docs/decisions/0002-sql-ingest-function.md).
  'apps/calendar-api/src/events/chat-ingest.sql.ts': ['ingest_chat_message'],
  'apps/calendar-api/src/feed/feed-addresses.repository.ts': ['feed_address'],
  'apps/calendar-api/src/messages/chat-messages.repository.ts': ['chat_message'],
  'apps/calendar-api/src/notifications/notifications.repository.ts': ['notification'],
  'apps/calendar-api/src/notifications/scheduled-notices.repository.ts': ['scheduled_notice'],
  'apps/calendar-api/src/tokens/tokens.repository.ts': ['api_token'],
  'apps/workspace-api/src/agents/agents.repository.ts': ['agent'],
  'apps/workspace-api/src/api-keys/api-keys.repository.ts': ['api_key'],
  'apps/workspace-api/src/attributes/attributes.repository.ts': ['user_attributes'],
  'apps/workspace-api/src/audit/audit.repository.ts': ['audit_event'],
  // The event insert a write statement carries (users.sql.ts's update composes it).
  'apps/workspace-api/src/audit/audit-event.sql.ts': ['audit_event'],
  'apps/workspace-api/src/file-mappings/file-mappings.repository.ts': ['file_mapping'],
  'apps/workspace-api/src/groups/groups.repository.ts': ['group', 'group_image', 'user_group'],
  'apps/workspace-api/src/icons/icons.repository.ts': ['image_icon'],
  'apps/workspace-api/src/images/images.repository.ts': ['image'],
  'apps/workspace-api/src/installation/installation.repository.ts': ['installation'],
  'apps/workspace-api/src/logins/logins.repository.ts': [
    'login_address',
    'login_link',
    'login_session',
  ],
  'apps/workspace-api/src/registry/registry.repository.ts': ['registry', 'registry_entry'],
  'apps/workspace-api/src/session-recording/recordings.repository.ts': ['recording'],
  'apps/workspace-api/src/sessions/kasms.repository.ts': ['kasm', 'kasm_grant'],
  'apps/workspace-api/src/session-sharing/shares.repository.ts': ['session_share'],
  // The console overview's statements, which kasms.repository runs.
  'apps/workspace-api/src/sessions/kasm-overview.sql.ts': ['kasm'],
  'apps/workspace-api/src/sessions/launch-waits.repository.ts': ['launch_wait'],
  'apps/workspace-api/src/settings/settings.repository.ts': [],
  'apps/workspace-api/src/sso/saml-assertions.repository.ts': ['sso_saml_assertion'],
  'apps/workspace-api/src/sso/sso.repository.ts': [
    'sso_group_mapping',
    'sso_identity',
    'sso_provider',
  ],
  'apps/workspace-api/src/staging/staging.repository.ts': ['staging_config'],
  'apps/workspace-api/src/users/users.repository.ts': ['user'],
  'apps/workspace-api/src/users/users.sql.ts': ['user'],
  'apps/workspace-api/src/users/users-list.sql.ts': ['user'],
  'apps/workspace-api/src/zones/zones.repository.ts': ['zone'],
};

// The measured exceptions: a table read (or written) outside its repository, and why.
const EXCEPTIONS: Record<string, Record<string, string>> = {
  'apps/workspace-api/src/sessions/kasms.repository.ts': {
    staging_config:
      "a staged claim finds a running session of the workspace's staging configs in the statement that locks it",
    agent: 'a staged claim takes only sessions on online agents of the zone, in that statement',
    image:
      "the idle sweep and the metrics read each session's workspace (idle limit, name) in one statement",
  },
  'apps/workspace-api/src/users/users.repository.ts': {
    user_group:
      "a group's members page in username order needs the membership in the same statement (sending 100k ids a page otherwise)",
  },
  'apps/workspace-api/src/users/users.sql.ts': {
    group:
      "get_user and update_user read the user's groups in their one statement (docs/decisions/0001-users-statement-reads-groups.md)",
    user_group: 'the same statement as group, and the membership filter of the users list',
  },
};

const REPOSITORY_FILES = ['apps/*/src/*/*.repository.ts', 'apps/*/src/*/*.sql.ts'];
const serviceOf = (file: string) => file.split('/')[1];
const usedIn = (file: string) =>
  tablesUsedBy(readFileSync(path.join(ROOT, file), 'utf8'), tablesOfModels(serviceOf(file)));

describe('each repository queries its own tables', () => {
  const files = globSync(REPOSITORY_FILES, { cwd: ROOT }).sort();

  it('knows every repository and raw-statement file', () => {
    expect(files).toEqual(Object.keys(OWN).sort());
  });

  it.each(files)('%s reaches only its own tables and its named exceptions', (file) => {
    const allowed = new Set([...(OWN[file] ?? []), ...Object.keys(EXCEPTIONS[file] ?? {})]);
    expect(usedIn(file).filter((table) => !allowed.has(table))).toEqual([]);
  });

  it('names no exception that is no longer used', () => {
    const stale = Object.entries(EXCEPTIONS).flatMap(([file, tables]) =>
      Object.keys(tables)
        .filter((table) => !usedIn(file).includes(table))
        .map((table) => `${file}: ${table}`),
    );
    expect(stale).toEqual([]);
  });

  it('sees a deliberate violation through a delegate and through a raw statement', () => {
    const models = tablesOfModels('workspace-api');
    const source = [
      'db.kasm.findMany({ where: {} });',
      '(tx ?? prisma).stagingConfig.update({ where: { id } });',
      "const sql = `SELECT 1 FROM ${qualified(schema, 'api_key')}`;",
    ].join('\n');
    expect(tablesUsedBy(source, models)).toEqual(['api_key', 'kasm', 'staging_config']);
  });
});
