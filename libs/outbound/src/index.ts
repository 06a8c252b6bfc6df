export { classifyIp, parseIp, parseCidr, cidrContains, embeddedIpv4, formatIp } from './ip-address';
export type { AddressKind, Cidr, IpAddress } from './ip-address';
export { createOutboundPolicy, parseAllowlist } from './outbound-policy';
export type { OutboundPolicy, OutboundPolicySettings } from './outbound-policy';
export { createOutboundFetch, OutboundBlockedError, readTextPrefix } from './outbound-fetch';
export type { OutboundFetch, OutboundFetchInit, Resolver } from './outbound-fetch';
