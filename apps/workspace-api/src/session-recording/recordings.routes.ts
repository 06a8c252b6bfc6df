import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toWireId } from '@platform/schemas';
import { API_KEY_SECURITY, errorResponses } from '../api';
import { requestOrigin } from '../audit';
import {
  GetRecordingsBodySchema,
  RecordingFileSchema,
  RecordingIdBodySchema,
  RecordingsPageSchema,
  VerifiedSchema,
} from './recordings.schemas';
import type { RecordingsService } from './recordings.service';

const tags = ['recordings'];
const security = API_KEY_SECURITY;

/** Session recordings (docs/recording.md), under a permission of their own: recordings.view. */
export const recordingsRoutes: FastifyPluginAsyncTypebox<{
  recordings: RecordingsService;
}> = async (app, { recordings }) => {
  app.post(
    '/get_recordings',
    {
      config: { permission: 'recordings.view' },
      schema: {
        tags,
        security,
        summary:
          'List session recordings, newest first, filtered by user, workspace, session and time',
        body: GetRecordingsBodySchema,
        response: { 200: RecordingsPageSchema, ...errorResponses() },
      },
    },
    async (request) => recordings.page(request.body),
  );

  app.post(
    '/get_recording',
    {
      config: { permission: 'recordings.view' },
      schema: {
        tags,
        security,
        summary: 'Download a recording file with its digests (audited: recording_viewed)',
        body: RecordingIdBodySchema,
        response: { 200: RecordingFileSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      // The auth plugin let only a key through: the viewer is that key.
      const key = request.apiKey ?? { id: '', name: '' };
      const { row, body, bytes, sha256 } = await recordings.open(
        request.body.recording_id,
        {
          actor: { kind: 'api_key', id: toWireId(key.id), name: key.name },
          channel: 'api',
          ...requestOrigin(request),
        },
        'download',
      );
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${toWireId(row.id)}.rec"`)
        .header('x-recording-digest', row.digest ?? '')
        .header('repr-digest', `sha-256=:${sha256}:`)
        .header('content-length', bytes)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  app.post(
    '/verify_recording',
    {
      config: { permission: 'recordings.view' },
      schema: {
        tags,
        security,
        summary: "Check a recording's digest chain, and that it ends where the database says",
        body: RecordingIdBodySchema,
        response: { 200: VerifiedSchema, ...errorResponses(404) },
      },
    },
    async (request) => recordings.verify(request.body.recording_id),
  );
};
