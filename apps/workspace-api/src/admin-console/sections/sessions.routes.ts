import { Type } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';
import { sendPage } from '../../web';
import type { SessionsService } from '../../sessions';
import { type AdminSection, personOf } from '../admin-context';
import { backTo, DoneQuery, noticeOf } from './section-forms';
import { sessionsPage } from './sessions.views';

const NOTICES = { destroyed: 'The session was destroyed.', kept: 'The session was kept alive.' };
const SessionParams = Type.Object({ kasmId: IdSchema });
const BackForm = Type.Object({ back: Type.Optional(Type.String({ maxLength: 200 })) });

/** Every live session: its user, workspace, agent, status, age and expiry; keep alive, destroy. */
export function sessionsSection({ sessions }: { sessions: SessionsService }): AdminSection {
  return {
    id: 'sessions',
    title: 'Sessions',
    viewPermission: 'sessions.view',
    routes: async (app) => {
      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) => {
        const rows = await sessions.listLive();
        const notice = noticeOf(NOTICES, request.query.done);
        return sendPage(reply, sessionsPage(personOf(request), rows, notice));
      });

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
