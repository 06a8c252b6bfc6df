export { fastifyOptions, validatorCompiler } from './fastify-options';
export type { HttpOptions } from './fastify-options';
export { healthRoutes } from './health.routes';
export type { HealthOptions } from './health.routes';
export { docsPlugin } from './docs.plugin';
export { listen } from './listen';
export type { CatalogRoute } from './docs.plugin';
export { clientErrorHandler } from './fastify-options';
export { parseTrustProxy } from './trust-proxy';
export type { TrustProxy } from './trust-proxy';
export { securityEnv, securityEnvProblems } from './security-env';
export type { SecurityConfig } from './security-env';
export { authThrottlePlugin } from './rate-limit/auth-throttle.plugin';
export type { AuthThrottleOptions, RequestThrottle } from './rate-limit/auth-throttle.plugin';
export { TooManyRequestsError } from './rate-limit/failure-throttle';
export type { ThrottleRule } from './rate-limit/failure-throttle';
export { clientKey } from './rate-limit/client-key';
export { classifyIp, parseIp, parseCidr, cidrContains, formatIp } from './outbound/ip-address';
export type { AddressKind, IpAddress } from './outbound/ip-address';
export { createOutboundPolicy, parseAllowlist } from './outbound/outbound-policy';
export type { OutboundPolicy, OutboundPolicySettings } from './outbound/outbound-policy';
export {
  createOutboundFetch,
  OutboundBlockedError,
  readTextPrefix,
} from './outbound/outbound-fetch';
export type { OutboundFetch, OutboundFetchInit, Resolver } from './outbound/outbound-fetch';
export { inputGuardPlugin } from './input-guard.plugin';
export { badTextFields, isBadText } from './input-guard';
export { escapeHtml, pagePolicy, setPageHeaders } from './web-page';
export type { PagePolicyOptions } from './web-page';
