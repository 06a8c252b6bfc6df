import type { FastifyReply } from 'fastify';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML, in an element or a quoted attribute. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface PagePolicyOptions {
  /** Also allows the <style> elements that carry this nonce (a component that injects its CSS). */
  styleNonce?: string;
  /** Also allows fonts from data: URLs (a component's embedded icon font). */
  dataFonts?: boolean;
  /** Origins besides its own that the page's forms may lead to (a redirect counts too). */
  formTargets?: readonly string[];
}

/**
 * The Content-Security-Policy of a service's web page: no inline script or style, nothing from
 * elsewhere, only the page's own files, its own API and its own images. Forms post only here,
 * and no other site may frame the page.
 */
export function pagePolicy({
  styleNonce,
  dataFonts,
  formTargets = [],
}: PagePolicyOptions = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    styleNonce ? `style-src 'self' 'nonce-${styleNonce}'` : "style-src 'self'",
    ...(dataFonts ? ['font-src data:'] : []),
    "img-src 'self'",
    "connect-src 'self'",
    ["form-action 'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The headers of every page: its policy, no sniffing, no referrer, no framing, no caching. */
export function setPageHeaders(reply: FastifyReply, policy = pagePolicy()): void {
  reply
    .header('content-security-policy', policy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store');
}
