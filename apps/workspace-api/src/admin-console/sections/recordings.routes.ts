import { Type } from '@sinclair/typebox';
import { IdSchema, toWireId } from '@platform/schemas';
import type { RecordingsService } from '../../session-recording';
import { sendPage } from '../../web';
import { type AdminSection, consoleContext, personOf } from '../admin-context';
import { playerPage, recordingsPage } from './recordings.views';

const Filters = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 255 })),
  workspace: Type.Optional(Type.String({ maxLength: 255 })),
  since: Type.Optional(Type.String({ format: 'date' })),
  until: Type.Optional(Type.String({ format: 'date' })),
});
const RecordingParams = Type.Object({ recordingId: IdSchema });

/**
 * Session recordings (docs/recording.md): the list, filtered by user, workspace and day; a
 * player in the page (noVNC's decoders fed from the file); the download with its digests.
 * Fetching a file to play or download it is audited (recording_viewed).
 */
export function recordingsSection({ recordings }: { recordings: RecordingsService }): AdminSection {
  return {
    id: 'recordings',
    title: 'Recordings',
    viewPermission: 'recordings.view',
    routes: async (app) => {
      app.get(
        '/',
        {
          schema: { hide: true, querystring: Filters },
          // A filter left empty in the form is no filter.
          preValidation: async (request) => {
            const query = request.query as Record<string, unknown>;
            for (const [name, value] of Object.entries(query)) if (value === '') delete query[name];
          },
        },
        async (request, reply) => {
          const { since, until } = request.query;
          // Days as the form gives them: `until` includes its day.
          const until1 = until && new Date(Date.parse(until) + 86_400_000).toISOString();
          const listed = await recordings.list({ ...request.query, since, until: until1 });
          const names = await recordings.imageNames();
          return sendPage(reply, recordingsPage(personOf(request), request.query, listed, names));
        },
      );

      app.get(
        '/:recordingId',
        { schema: { hide: true, params: RecordingParams } },
        async (request, reply) => {
          const { row, verified } = await recordings.describe(request.params.recordingId);
          return sendPage(reply, playerPage(personOf(request), row, verified));
        },
      );

      for (const purpose of ['play', 'download'] as const) {
        app.get(
          `/:recordingId/${purpose === 'play' ? 'file' : 'download'}`,
          { schema: { hide: true, params: RecordingParams } },
          async (request, reply) => {
            const viewer = consoleContext(request);
            if (!viewer) throw new Error('console request without a person');
            const opened = await recordings.open(request.params.recordingId, viewer, purpose);
            const name = `${toWireId(opened.row.id)}.rec`;
            return reply
              .type('application/octet-stream')
              .header(
                'content-disposition',
                `${purpose === 'play' ? 'inline' : 'attachment'}; filename="${name}"`,
              )
              .header('x-recording-digest', opened.row.digest ?? '')
              .header('repr-digest', `sha-256=:${opened.sha256}:`)
              .header('content-length', opened.bytes)
              .header('cache-control', 'no-store')
              .send(opened.body);
          },
        );
      }
    },
  };
}
