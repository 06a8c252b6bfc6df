export { fastifyOptions, validatorCompiler } from './fastify-options';
export type { HttpOptions } from './fastify-options';
export { docsPlugin } from './docs.plugin';
export { startService } from './listen';
export type { CatalogRoute } from './docs.plugin';
export type { TrustProxy } from './trust-proxy';
export { securityEnv, securityEnvProblems } from './security-env';
export type { SecurityConfig } from './security-env';
export { isBadText } from './input-guard';
export { escapeHtml, pagePolicy, setPageHeaders } from './web-page';
export { html, Html } from './html';
export type { PagePolicyOptions } from './web-page';
export { createServiceApp, serviceFoundation } from './service-app';
export type {
  ServiceAppOverrides,
  ServiceFoundationOptions,
  ServiceHttpConfig,
} from './service-app';
export { AssetParamsSchema, pageAssets } from './web-assets';
export type { PageAssetsOptions } from './web-assets';
