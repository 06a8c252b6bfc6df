import { Type } from '@sinclair/typebox';
import { IdSchema, toUuid } from '@platform/schemas';
import type { ApiKeysService } from '../../api-keys';
import { sendPage } from '../../web';
import { type AdminSection, personOf } from '../admin-context';
import { apiKeysPage, issuedKeyPage } from './api-keys.views';
import { DoneQuery, formProblem, noticeOf, permissionsIn, ticked } from './section-forms';

const NOTICES = { revoked: 'The API key was revoked.' };
const CreateForm = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    read_only: Type.Optional(Type.String({ maxLength: 10 })),
    expires: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: true },
);

/** A date (and time) typed into the form, or null when blank; a 400 naming it otherwise. */
function expiryOf(text: string | undefined): Date | null {
  if (!text?.trim()) return null;
  const date = new Date(text.trim());
  if (Number.isNaN(date.getTime())) {
    throw formProblem('expires', 'must be a date');
  }
  return date;
}

function permissionsOrRefuse(body: Record<string, unknown>) {
  const permissions = permissionsIn(body);
  if (permissions.length === 0) {
    throw formProblem('permissions', 'pick at least one permission');
  }
  return permissions;
}

/** API keys: create with a permission picker (the secret shown once), list, revoke. */
export function apiKeysSection({ apiKeys }: { apiKeys: ApiKeysService }): AdminSection {
  return {
    id: 'api-keys',
    title: 'API keys',
    // The catalogue has no view permission for keys: listing them needs the same as the API's.
    viewPermission: 'api_keys.modify',
    routes: async (app) => {
      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) => {
        const page = apiKeysPage(
          personOf(request),
          await apiKeys.list(),
          noticeOf(NOTICES, request.query.done),
        );
        return sendPage(reply, page);
      });

      // The answer shows the secret, once: no redirect, and the page is never cached.
      app.post(
        '/create',
        {
          config: { permission: 'api_keys.modify', audit: 'api_key', operation: 'create_api_key' },
          schema: { hide: true, body: CreateForm },
        },
        async (request, reply) => {
          const person = personOf(request);
          const issued = await apiKeys.issue(
            {
              name: request.body.name,
              permissions: permissionsOrRefuse(request.body),
              readOnly: ticked(request.body.read_only),
              expiresAt: expiryOf(request.body.expires),
            },
            { ...person.grant, expiresAt: null },
          );
          return sendPage(reply, issuedKeyPage(person, issued));
        },
      );

      app.post(
        '/:apiKeyId/revoke',
        {
          config: { permission: 'api_keys.modify', audit: 'api_key', operation: 'revoke_api_key' },
          schema: { hide: true, params: Type.Object({ apiKeyId: IdSchema }) },
        },
        async (request, reply) => {
          await apiKeys.revoke({ id: toUuid(request.params.apiKeyId) }, personOf(request).grant);
          return reply.redirect('/admin/api-keys?done=revoked', 303);
        },
      );
    },
  };
}
