import { Type } from '@sinclair/typebox';
import { type AuditLog, GetAuditLogBodySchema } from '../../audit';
import { sendPage } from '../../web';
import { type AdminSection, personOf } from '../admin-context';
import { auditPage } from './audit.views';

/** get_audit_log's filters as a page's query (50 a page, keyset paging by `cursor`). */
const AuditQuery = Type.Composite([
  Type.Omit(GetAuditLogBodySchema, ['page', 'page_size']),
  Type.Object({ page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) }),
]);

/** Every write made from the console, the API, the settings file and the CLI, filtered. */
export function auditSection({ auditLog }: { auditLog: AuditLog }): AdminSection {
  return {
    id: 'audit',
    title: 'Audit',
    viewPermission: 'audit.view',
    routes: async (app) => {
      app.get(
        '/',
        {
          schema: { hide: true, querystring: AuditQuery },
          // A filter left empty in the form is no filter.
          preValidation: async (request) => {
            const query = request.query as Record<string, unknown>;
            for (const [name, value] of Object.entries(query)) if (value === '') delete query[name];
          },
        },
        async (request, reply) => {
          const page = await auditLog.page({ ...request.query, page: 0 });
          return sendPage(reply, auditPage(personOf(request), request.query, page));
        },
      );
    },
  };
}
