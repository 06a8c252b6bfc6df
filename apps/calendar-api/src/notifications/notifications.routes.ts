import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_PREFIX, errorResponses } from '../api';
import {
  NotificationListSchema,
  NotificationsQuerySchema,
  nextNotificationsLink,
} from './notifications.schemas';
import { toNotificationResponse, type NotificationsService } from './notifications.service';

export const notificationsRoutes: FastifyPluginAsyncTypebox<{
  notifications: NotificationsService;
}> = async (app, { notifications }) => {
  app.get(
    '/notifications',
    {
      // Delivery errors name the webhooks' hosts: the log is not for anonymous readers.
      config: { tokenRequired: true },
      schema: {
        tags: ['notifications'],
        summary:
          'The delivery log of outgoing notifications, newest first (needs a token, read scope is enough); a Link rel="next" header when more remain',
        querystring: NotificationsQuerySchema,
        response: { 200: NotificationListSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const page = await notifications.page(request.query);
      if (page.nextBeforeId !== null) {
        reply.header(
          'link',
          nextNotificationsLink(`${API_PREFIX}/notifications`, request.query, page.nextBeforeId),
        );
      }
      return page.notifications.map(toNotificationResponse);
    },
  );
};
