import { Type } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';
import { openingPage, sendPage } from '../../web';
import type { SessionsService } from '../../sessions';
import type { SharingService } from '../../session-sharing';
import { type AdminSection, personOf } from '../admin-context';
import { backTo, DoneQuery, noticeOf } from './section-forms';
import { sessionsPage } from './sessions.views';

const NOTICES = { destroyed: 'The session was destroyed.', kept: 'The session was kept alive.' };
const SessionParams = Type.Object({ kasmId: IdSchema });
const BackForm = Type.Object({ back: Type.Optional(Type.String({ maxLength: 200 })) });

/**
 * Every live session: its user, workspace, agent, status, age, expiry and viewers (joiners and
 * watchers); keep alive, destroy, watch (view-only, sessions.watch).
 */
export function sessionsSection({
  sessions,
  sharing,
}: {
  sessions: SessionsService;
  sharing: Pick<SharingService, 'viewersOf' | 'watch'>;
}): AdminSection {
  return {
    id: 'sessions',
    title: 'Sessions',
    viewPermission: 'sessions.view',
    routes: async (app) => {
      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) => {
        const rows = await sessions.listLive();
        const viewers = await sharing.viewersOf(rows.map((row) => row.id));
        const notice = noticeOf(NOTICES, request.query.done);
        return sendPage(reply, sessionsPage(personOf(request), rows, viewers, notice));
      });

      // A watch opens the session's page view-only in this browser, through a one-use link (by
      // a page that goes on by itself: the console's form-action does not reach the session's host).
      app.post(
        '/:kasmId/watch',
        {
          config: { permission: 'sessions.watch', audit: 'session', operation: 'watch_kasm' },
          schema: { hide: true, params: SessionParams },
        },
        async (request, reply) => {
          const { userId, username } = personOf(request);
          const url = await sharing.watch(request.params.kasmId, { id: userId, username });
          return sendPage(reply, openingPage({ friendlyName: 'the session, view only', url }));
        },
      );

      app.post(
        '/:kasmId/keepalive',
        {
          config: { permission: 'sessions.modify', audit: 'session', operation: 'keepalive' },
          schema: { hide: true, params: SessionParams, body: BackForm },
        },
        async (request, reply) => {
          await sessions.keepalive(request.params.kasmId);
          return reply.redirect(backTo(request.body.back, '/admin/sessions', 'kept'), 303);
        },
      );

      app.post(
        '/:kasmId/destroy',
        {
          config: { permission: 'sessions.delete', audit: 'session', operation: 'destroy_kasm' },
          schema: { hide: true, params: SessionParams, body: BackForm },
        },
        async (request, reply) => {
          await sessions.destroy(request.params.kasmId);
          return reply.redirect(backTo(request.body.back, '/admin/sessions', 'destroyed'), 303);
        },
      );
    },
  };
}
