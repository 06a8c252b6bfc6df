import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import cookie from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import { problemResponses } from '@platform/schemas';
import { requestOrigin, type AuditTrail } from '../audit';
import { ProxyOriginRejectedError } from '../errors';
import { originMatchesHost, type RequestAdmission } from '../session-proxy';
import {
  CreatedShareSchema,
  NewShareSchema,
  PanelItemParamsSchema,
  PanelParamsSchema,
  PageStandingSchema,
  PanelRoleBodySchema,
  ParticipantsSchema,
  SharesSchema,
} from './sharing.schemas';
import type { SharingService } from './sharing.service';

const PREFIX = '/kasm/:kasmId/_session';
const tags = ['session page'];
const problems = problemResponses(400, 401, 403, 404, 409);
const Done = Type.Object({ done: Type.Boolean() });

export interface SharingPanelOptions {
  sharing: SharingService;
  admit: RequestAdmission;
  /** Admits joiners and watchers too (their page asks its role). */
  admitAny: RequestAdmission;
  audit: Pick<AuditTrail, 'around'>;
}

/**
 * The owner's sharing from the session page's panel, on the sessions origin: links (create,
 * list, revoke) and joiners (list, give or take control, remove). Only the owner's grant is
 * admitted (a joiner's is 403); a change must come from the session's own host, and is audited
 * as the owner's.
 */
export const sharingPanelRoutes: FastifyPluginAsyncTypebox<SharingPanelOptions> = async (
  app,
  { sharing, admit, admitAny, audit },
) => {
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);

  async function asOwner<T>(
    request: FastifyRequest,
    kasmId: string,
    operation: string,
    work: () => Promise<T>,
  ): Promise<T> {
    if (!originMatchesHost(request.headers.origin, request.host))
      throw new ProxyOriginRejectedError();
    const { userId, username } = await admit(request, kasmId);
    return audit.around(
      {
        actor: { kind: 'user', id: userId ?? '', username },
        channel: 'session',
        ...requestOrigin(request),
      },
      operation,
      { type: 'session', ref: { kasm_id: kasmId } },
      work,
    );
  }

  // The page's standing, polled: a joiner's page follows its role live (view-only or not), the
  // owner's says who of the administrators is watching.
  app.get(
    `${PREFIX}/standing`,
    {
      schema: {
        tags,
        params: PanelParamsSchema,
        response: { 200: PageStandingSchema, ...problems },
      },
    },
    async (request) => {
      const { role } = await admitAny(request, request.params.kasmId);
      const watchers = role === 'owner' ? await sharing.watchersShown(request.params.kasmId) : [];
      return { role, watchers };
    },
  );

  app.get(
    `${PREFIX}/shares`,
    { schema: { tags, params: PanelParamsSchema, response: { 200: SharesSchema, ...problems } } },
    async (request) => {
      await admit(request, request.params.kasmId);
      return { shares: await sharing.list(request.params.kasmId) };
    },
  );

  app.post(
    `${PREFIX}/shares`,
    {
      schema: {
        tags,
        params: PanelParamsSchema,
        body: NewShareSchema,
        response: { 200: CreatedShareSchema, ...problems },
      },
    },
    async (request) => {
      const { kasmId } = request.params;
      return asOwner(request, kasmId, 'create_kasm_share_link', async () => {
        const { username } = await admit(request, kasmId);
        return sharing.create(kasmId, request.body, username);
      });
    },
  );

  app.post(
    `${PREFIX}/shares/:id/revoke`,
    { schema: { tags, params: PanelItemParamsSchema, response: { 200: Done, ...problems } } },
    async (request) => {
      const { kasmId, id } = request.params;
      await asOwner(request, kasmId, 'revoke_kasm_share_link', () => sharing.revoke(kasmId, id));
      return { done: true };
    },
  );

  app.get(
    `${PREFIX}/participants`,
    {
      schema: {
        tags,
        params: PanelParamsSchema,
        response: { 200: ParticipantsSchema, ...problems },
      },
    },
    async (request) => {
      await admit(request, request.params.kasmId);
      return { participants: await sharing.participants(request.params.kasmId, true) };
    },
  );

  app.post(
    `${PREFIX}/participants/:id/role`,
    {
      schema: {
        tags,
        params: PanelItemParamsSchema,
        body: PanelRoleBodySchema,
        response: { 200: Done, ...problems },
      },
    },
    async (request) => {
      const { kasmId, id } = request.params;
      await asOwner(request, kasmId, 'set_kasm_participant_role', () =>
        sharing.setRole(kasmId, id, request.body.role),
      );
      return { done: true };
    },
  );

  app.post(
    `${PREFIX}/participants/:id/remove`,
    { schema: { tags, params: PanelItemParamsSchema, response: { 200: Done, ...problems } } },
    async (request) => {
      const { kasmId, id } = request.params;
      await asOwner(request, kasmId, 'remove_kasm_participant', () => sharing.remove(kasmId, id));
      return { done: true };
    },
  );
};
