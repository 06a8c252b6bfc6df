import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toZoneResponse } from './zone-response';
import {
  CreateZoneBodySchema,
  TargetZoneBodySchema,
  UpdateZoneBodySchema,
  ZoneEnvelopeSchema,
  ZonesSchema,
} from './zones.schemas';
import type { ZonesService } from './zones.service';

const tags = ['settings'];
const security = API_KEY_SECURITY;

export const zonesRoutes: FastifyPluginAsyncTypebox<{ zones: ZonesService }> = async (
  app,
  { zones },
) => {
  app.post(
    '/create_zone',
    {
      config: { permission: 'settings.modify', audit: 'zone', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Create a zone: where sessions are reached (proxy host, path and port)',
        body: CreateZoneBodySchema,
        response: { 200: ZoneEnvelopeSchema, ...errorResponses(409) },
      },
    },
    async (request) => ({
      zone: toZoneResponse(await zones.create(request.body.target_zone, request.audit)),
    }),
  );

  app.post(
    '/get_zones',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary: 'List zones by name',
        response: { 200: ZonesSchema, ...errorResponses() },
      },
    },
    async () => ({ zones: (await zones.list()).map(toZoneResponse) }),
  );

  app.post(
    '/update_zone',
    {
      config: { permission: 'settings.modify', audit: 'zone', auditInChange: true },
      schema: {
        tags,
        security,
        summary: "Change a zone's name or proxy settings; only the fields present change",
        body: UpdateZoneBodySchema,
        response: { 200: ZoneEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      zone: toZoneResponse(await zones.update(request.body.target_zone, request.audit)),
    }),
  );

  app.post(
    '/delete_zone',
    {
      config: { permission: 'settings.modify', audit: 'zone', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete a zone that has no agents',
        body: TargetZoneBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await zones.remove(request.body.target_zone.zone_id, request.audit);
      return {};
    },
  );
};
