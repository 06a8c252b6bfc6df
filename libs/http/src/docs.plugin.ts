import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OpenAPIV3 } from 'openapi-types';

export interface DocsOptions {
  title: string;
  description: string;
  version: string;
  /** Extra OpenAPI security schemes, e.g. the API key headers. */
  securitySchemes?: Record<string, OpenAPIV3.SecuritySchemeObject>;
}

/** OpenAPI 3 generated from the route schemas: JSON at /docs/json, a browsable reference at /docs. */
export const docsPlugin = fp(
  async (app: FastifyInstance, options: DocsOptions) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: options.title, description: options.description, version: options.version },
        components: { securitySchemes: options.securitySchemes ?? {} },
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'docs' },
);
