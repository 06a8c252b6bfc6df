export { fastifyOptions, validatorCompiler } from './fastify-options';
export type { HttpOptions } from './fastify-options';
export { healthRoutes } from './health.routes';
export type { HealthOptions } from './health.routes';
export { docsPlugin } from './docs.plugin';
export { listen } from './listen';
