import type { FastifyInstance } from 'fastify';
import { adminConsole, type AdminConsoleOptions } from './admin-console.plugin';
import type { AdminSection } from './admin-context';
import { apiKeysSection } from './sections/api-keys.routes';
import { auditSection } from './sections/audit.routes';
import { groupsSection } from './sections/groups.routes';
import { infrastructureSection } from './sections/infrastructure.routes';
import { overviewSection } from './sections/overview.routes';
import { sessionsSection } from './sections/sessions.routes';
import { settingsCodeSection } from './sections/settings-code.routes';
import { ssoSection } from './sections/sso.routes';
import { usersSection } from './sections/users.routes';
import { workspacesSection } from './sections/workspaces.routes';

/** The services the console's sections act through: one of each feature, as app.ts built them. */
export type ConsoleServices = Parameters<typeof overviewSection>[0] &
  Parameters<typeof usersSection>[0] &
  Parameters<typeof groupsSection>[0] &
  Parameters<typeof workspacesSection>[0] &
  Parameters<typeof infrastructureSection>[0] &
  Parameters<typeof sessionsSection>[0] &
  Parameters<typeof apiKeysSection>[0] &
  Parameters<typeof settingsCodeSection>[0] &
  Parameters<typeof ssoSection>[0] &
  Parameters<typeof auditSection>[0];

/** The console's sections, in the order its menu shows them. */
function consoleSections(services: ConsoleServices): AdminSection[] {
  return [
    overviewSection(services),
    usersSection(services),
    groupsSection(services),
    workspacesSection(services),
    infrastructureSection(services),
    sessionsSection(services),
    apiKeysSection(services),
    ssoSection(services),
    settingsCodeSection(services),
    auditSection(services),
  ];
}

/** `/admin` with every section, registered inside the web page (its sign-in, cookies and forms). */
export const consolePages =
  (services: ConsoleServices & Omit<AdminConsoleOptions, 'sections'>) => (web: FastifyInstance) =>
    web.register(adminConsole, { ...services, sections: consoleSections(services) });
