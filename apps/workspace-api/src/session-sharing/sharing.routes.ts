import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toUuid } from '@platform/schemas';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import {
  CreatedShareSchema,
  CreateShareBodySchema,
  JoinKasmBodySchema,
  JoinKasmResponseSchema,
  KasmOnlyBodySchema,
  KasmShareBodySchema,
  ParticipantBodySchema,
  ParticipantRoleBodySchema,
  ParticipantsSchema,
  SharesSchema,
} from './sharing.schemas';
import type { SharingService } from './sharing.service';

const tags = ['sharing'];
const security = API_KEY_SECURITY;

/**
 * Kasm's join_kasm and the platform's share links and joiners (docs/sharing.md). A link or a
 * join admits a browser to someone's session, as a connect link does: users.auth_session.
 */
export const sharingRoutes: FastifyPluginAsyncTypebox<{ sharing: SharingService }> = async (
  app,
  { sharing },
) => {
  const keyName = (request: { apiKey: { name?: string } | null }) =>
    `api key ${request.apiKey?.name ?? ''}`.trim();

  app.post(
    '/join_kasm',
    {
      config: { permission: 'users.auth_session', audit: 'session', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          "Kasm's join: a one-use kasm_url to the session of share_id for the joiner (user_id; none: anonymous, where the workspace allows), in the role the owner's groups give joiners (shared_session_full_control)",
        body: JoinKasmBodySchema,
        response: { 200: JoinKasmResponseSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) =>
      sharing.join(request.body.share_id, request.body.user_id ?? null, request.audit),
  );

  app.post(
    '/create_kasm_share_link',
    {
      config: { permission: 'users.auth_session', audit: 'session', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'A share link of a session: role view or control, an expiry, one use, named users or groups',
        body: CreateShareBodySchema,
        response: { 200: CreatedShareSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { kasm_id, ...share } = request.body;
      return sharing.create(kasm_id, share, keyName(request), request.audit);
    },
  );

  app.post(
    '/get_kasm_share_links',
    {
      config: { permission: 'sessions.view' },
      schema: {
        tags,
        security,
        summary: "A session's links that still admit (never their secrets)",
        body: KasmOnlyBodySchema,
        response: { 200: SharesSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ shares: await sharing.list(request.body.kasm_id) }),
  );

  app.post(
    '/revoke_kasm_share_link',
    {
      config: { permission: 'sessions.modify', audit: 'session', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Revoke a link: it answers 403 from now on, and its joiners’ streams close',
        body: KasmShareBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await sharing.revoke(request.body.kasm_id, request.body.share_id, request.audit);
      return {};
    },
  );

  app.post(
    '/get_kasm_participants',
    {
      config: { permission: 'sessions.view' },
      schema: {
        tags,
        security,
        summary: 'Who watches or drives the session besides its owner',
        body: KasmOnlyBodySchema,
        response: { 200: ParticipantsSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ participants: await sharing.participants(request.body.kasm_id) }),
  );

  app.post(
    '/set_kasm_participant_role',
    {
      config: { permission: 'sessions.modify', audit: 'session' },
      schema: {
        tags,
        security,
        summary: 'Give a joiner control, or take it back (view): live, with no reconnect',
        body: ParticipantRoleBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { kasm_id, participant_id, role } = request.body;
      await sharing.setRole(kasm_id, participant_id, role);
      return {};
    },
  );

  app.post(
    '/remove_kasm_participant',
    {
      config: { permission: 'sessions.modify', audit: 'session' },
      schema: {
        tags,
        security,
        summary: 'End a joiner’s or watcher’s access: their stream closes at once',
        body: ParticipantBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await sharing.remove(request.body.kasm_id, toUuid(request.body.participant_id));
      return {};
    },
  );
};
