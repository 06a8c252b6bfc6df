import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toFileMappingResponse } from './file-mapping-response';
import {
  CreateFileMappingBodySchema,
  FileMappingEnvelopeSchema,
  FileMappingsSchema,
  GetFileMappingsBodySchema,
  TargetFileMappingBodySchema,
  UpdateFileMappingBodySchema,
} from './file-mappings.schemas';
import type { FileMappingsService } from './file-mappings.service';

const tags = ['settings'];
const security = API_KEY_SECURITY;

/** `bodyLimit` applies to the two writes that carry content (see FILE_MAPPING_BODY_LIMIT_BYTES). */
export const fileMappingsRoutes: FastifyPluginAsyncTypebox<{
  fileMappings: FileMappingsService;
  bodyLimit: number;
}> = async (app, { fileMappings, bodyLimit }) => {
  app.post(
    '/create_file_mapping',
    {
      bodyLimit,
      config: { permission: 'settings.modify', audit: 'file_mapping', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Attach a file (up to 5 MiB) to a workspace, a group or a user',
        body: CreateFileMappingBodySchema,
        response: { 200: FileMappingEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      file_mapping: toFileMappingResponse(
        await fileMappings.create(request.body.target_file_mapping, request.audit),
      ),
    }),
  );

  app.post(
    '/get_file_mappings',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary:
          'List the file mappings of one workspace, group or user, or all of them, a page at a time (at most 100 mappings and 8 MiB of content)',
        body: GetFileMappingsBodySchema,
        response: { 200: FileMappingsSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { target_file_mapping: target, cursor, page_size: pageSize } = request.body;
      const page = await fileMappings.page(target, { cursor, pageSize });
      return { file_mappings: page.rows.map(toFileMappingResponse), next_cursor: page.nextCursor };
    },
  );

  app.post(
    '/get_file_mapping',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary: 'One file mapping, with its content',
        body: TargetFileMappingBodySchema,
        response: { 200: FileMappingEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      file_mapping: toFileMappingResponse(
        await fileMappings.find(request.body.target_file_mapping.file_mapping_id),
      ),
    }),
  );

  app.post(
    '/update_file_mapping',
    {
      bodyLimit,
      config: { permission: 'settings.modify', audit: 'file_mapping', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          "Change a file mapping's name, description, destination, executable flag or content",
        body: UpdateFileMappingBodySchema,
        response: { 200: FileMappingEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      file_mapping: toFileMappingResponse(
        await fileMappings.update(request.body.target_file_mapping, request.audit),
      ),
    }),
  );

  app.post(
    '/delete_file_mapping',
    {
      config: { permission: 'settings.modify', audit: 'file_mapping', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete a file mapping',
        body: TargetFileMappingBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await fileMappings.remove(request.body.target_file_mapping.file_mapping_id, request.audit);
      return {};
    },
  );
};
