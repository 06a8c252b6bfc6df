import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, errorResponses } from '../api';
import type { AuditLog } from './audit-log';
import { AuditLogPageSchema, GetAuditLogBodySchema } from './audit.schemas';

export const auditRoutes: FastifyPluginAsyncTypebox<{ auditLog: AuditLog }> = async (
  app,
  { auditLog },
) => {
  app.post(
    '/get_audit_log',
    {
      config: { permission: 'audit.view' },
      schema: {
        tags: ['audit'],
        security: API_KEY_SECURITY,
        summary: 'Read the audit trail of writes, newest first, filtered and paged',
        description:
          'Every write operation (every permission but *.view), its refusals included, from the API, the admin console, the settings file and the CLI. Paged by page number or by next_cursor, as get_users is. Snapshots never hold passwords, hashes or secrets.',
        body: GetAuditLogBodySchema,
        response: { 200: AuditLogPageSchema, ...errorResponses() },
      },
    },
    async (request) => auditLog.page(request.body),
  );
};
