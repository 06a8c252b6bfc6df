import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { OpenAPIV3 } from 'openapi-types';

export interface DocsOptions {
  title: string;
  description: string;
  version: string;
  /** Extra OpenAPI security schemes, e.g. the API key headers. */
  securitySchemes?: Record<string, OpenAPIV3.SecuritySchemeObject>;
}

/** A route as the OpenAPI document sees it: the property tests walk these. */
export interface CatalogRoute {
  method: string;
  url: string;
  schema: FastifySchema;
  config: Record<string, unknown>;
  bodyLimit?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the docs plugin, with its schemas. */
    routeCatalog: () => CatalogRoute[];
  }
}

type Responses = Record<string, { description?: string }>;

/**
 * Every documented response says what it is: a schema without a description of its own (Fastify
 * writes "Default Response") gets its status's meaning, "200: the operation's answer".
 */
function withResponseDescriptions(doc: OpenAPIV3.Document): OpenAPIV3.Document {
  for (const operations of Object.values(doc.paths ?? {}) as unknown as Record<string, unknown>[]) {
    for (const operation of Object.values(operations) as { responses?: Responses }[]) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (response.description && response.description !== 'Default Response') continue;
        response.description = status.startsWith('2')
          ? "Success: the operation's answer"
          : (STATUS_CODES[Number(status)] ?? 'Error');
      }
    }
  }
  return doc;
}

/** OpenAPI 3 generated from the route schemas: JSON at /docs/json, a browsable reference at /docs. */
export const docsPlugin = fp(
  async (app: FastifyInstance, options: DocsOptions) => {
    const routes: CatalogRoute[] = [];
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        routes.push({
          method,
          url: route.url,
          schema: route.schema ?? {},
          config: (route.config ?? {}) as Record<string, unknown>,
          bodyLimit: route.bodyLimit,
        });
      }
    });
    app.decorate('routeCatalog', () => [...routes]);
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: options.title, description: options.description, version: options.version },
        components: { securitySchemes: options.securitySchemes ?? {} },
      },
      transformObject: (documentObject) => {
        const { openapiObject } = documentObject as { openapiObject: OpenAPIV3.Document };
        return withResponseDescriptions(openapiObject);
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'docs' },
);
