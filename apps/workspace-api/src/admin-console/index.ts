// The admin console's public face: what other features (and app.ts, the CLI) may use of it.
export { hasAdministrator, runAdminCommand } from './admin.cli';
export { adminConsole, type AdminConsoleOptions } from './admin-console.plugin';
export { consolePages, type ConsoleServices } from './admin-console.module';
export {
  type AdminPerson,
  type AdminSection,
  may,
  personOf,
  requirePermission,
} from './admin-context';
export { actionForm, adminPage, checkbox, field } from './admin-layout';
export { apiKeysSection } from './sections/api-keys.routes';
export { auditSection } from './sections/audit.routes';
export { groupsSection } from './sections/groups.routes';
export { infrastructureSection } from './sections/infrastructure.routes';
export { overviewSection } from './sections/overview.routes';
export { sessionsSection } from './sections/sessions.routes';
export { settingsCodeSection } from './sections/settings-code.routes';
export { ssoSection } from './sections/sso.routes';
export { usersSection } from './sections/users.routes';
export { workspacesSection } from './sections/workspaces.routes';
