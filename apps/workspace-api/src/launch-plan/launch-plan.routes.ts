import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, errorResponses } from '../api';
import { requestHostOf } from '../domain';
import { toLaunchPlanResponse } from './launch-plan-response';
import { LaunchPlanBodySchema, LaunchPlanEnvelopeSchema } from './launch-plan.schemas';
import type { LaunchPlanService } from './launch-plan.service';

export const launchPlanRoutes: FastifyPluginAsyncTypebox<{
  launchPlans: LaunchPlanService;
}> = async (app, { launchPlans }) => {
  app.post(
    '/get_launch_plan',
    {
      config: { permission: 'images.view' },
      schema: {
        tags: ['workspaces'],
        security: API_KEY_SECURITY,
        summary:
          'What a session of this user on this workspace would get: agent, resources, session URL, profile path, file mappings, exec_config',
        body: LaunchPlanBodySchema,
        response: { 200: LaunchPlanEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      launch_plan: toLaunchPlanResponse(
        await launchPlans.plan(
          request.body.target_user,
          request.body.target_image.image_id,
          requestHostOf(request),
        ),
      ),
    }),
  );
};
