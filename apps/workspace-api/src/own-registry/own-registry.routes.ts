import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { problemResponses } from '@platform/schemas';
import { OwnRegistryFileNotFoundError } from '../errors';
import { OWN_ICONS } from './own-icons';
import { OWN_SCHEMA_VERSION, ownRegistryList } from './own-registry';
import { OwnIconParamsSchema, OwnRegistryListSchema } from './own-registry.schemas';

export const OWN_REGISTRY_PATH = '/registry/';

/**
 * workspace-api's own registry, laid out as Kasm registries are (`versions.txt`,
 * `<version>/list.json`, `<version>/icons/<image_src>`) so `add_registry` takes its URL as is:
 * `http(s)://<this service>/registry/`. Public, like any registry; it lists images, no secrets.
 */
export const ownRegistryRoutes: FastifyPluginAsyncTypebox<{ series: string }> = async (
  app,
  { series },
) => {
  const tags = ['Registry (own images)'];
  app.get(
    `${OWN_REGISTRY_PATH}versions.txt`,
    {
      schema: {
        tags,
        summary: 'The schema versions of the own registry',
        response: { 200: Type.String() },
      },
    },
    async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').send(`${OWN_SCHEMA_VERSION}\n`),
  );

  app.get(
    `${OWN_REGISTRY_PATH}${OWN_SCHEMA_VERSION}/list.json`,
    {
      schema: {
        tags,
        summary: 'The workspace images this repository builds, as a registry list (schema 1.1)',
        response: { 200: OwnRegistryListSchema },
      },
    },
    async (request) =>
      ownRegistryList({
        series,
        registryUrl: `${request.protocol}://${request.host}${OWN_REGISTRY_PATH}`,
      }),
  );

  app.get(
    `${OWN_REGISTRY_PATH}${OWN_SCHEMA_VERSION}/icons/:file`,
    {
      schema: {
        tags,
        summary: 'An icon of the own registry',
        params: OwnIconParamsSchema,
        response: { 200: Type.String(), ...problemResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const icon = OWN_ICONS[request.params.file];
      if (!icon) throw new OwnRegistryFileNotFoundError(`icons/${request.params.file}`);
      return reply
        .type('image/svg+xml')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(icon);
    },
  );
};
