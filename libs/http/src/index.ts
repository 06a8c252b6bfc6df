export { fastifyOptions, validatorCompiler } from './fastify-options';
export type { HttpOptions } from './fastify-options';
export { healthRoutes } from './health.routes';
export type { HealthOptions } from './health.routes';
export { docsPlugin } from './docs.plugin';
export { listen, startService } from './listen';
export type { CatalogRoute } from './docs.plugin';
export { clientErrorHandler } from './fastify-options';
export { parseTrustProxy } from './trust-proxy';
export type { TrustProxy } from './trust-proxy';
export { securityEnv, securityEnvProblems } from './security-env';
export type { SecurityConfig } from './security-env';
export { inputGuardPlugin } from './input-guard.plugin';
export { badTextFields, isBadText } from './input-guard';
export { escapeHtml, pagePolicy, setPageHeaders } from './web-page';
export type { PagePolicyOptions } from './web-page';
export { createServiceApp, serviceFoundation } from './service-app';
export type {
  ServiceAppOverrides,
  ServiceFoundationOptions,
  ServiceHttpConfig,
} from './service-app';
export { AssetParamsSchema, loadPageAssets, sendAsset } from './web-assets';
export type { Asset } from './web-assets';
