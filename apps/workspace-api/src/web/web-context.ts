import type { FastifyInstance, FastifyReply } from 'fastify';
import { pagePolicy, setPageHeaders } from '@platform/http';
import type { IconsService } from '../icons';
import type { ImagesService } from '../images';
import type { ZoneProxy } from '../launch-plan';
import type { LoginsService, SignedIn } from '../logins';
import type { LaunchSession, SessionsService } from '../sessions';
import type { OfferedProvider, SsoService } from '../sso';

// What the web plugin gives its routes: its options, what it adds to each request, and sendPage.
// Apart from web.plugin.ts, which registers the routes: they import this, and nothing imports back.

export interface WebOptions {
  logins: LoginsService;
  sessions: SessionsService;
  /** request_kasm's use case: the page's Launch button takes the same path. */
  launchSession: LaunchSession;
  images: ImagesService;
  icons: IconsService;
  /** The zones' proxy settings: the page's forms may lead to their session origins. */
  zones: { list(): Promise<ZoneProxy[]> };
  /** Identity providers: the sign-in page's "Sign in with …" buttons and their routes. */
  sso: SsoService;
  /** SESSION_URL_SCHEME. */
  sessionScheme: string;
  /** Registers more pages (the console) inside the plugin: its sign-in, cookies and form parsing. */
  extend?: (web: FastifyInstance) => PromiseLike<unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a web page request, and the CSRF token of their forms. */
    signedIn: (SignedIn & { csrf: string; token: string }) | null;
    /** The identity providers a sign-in page offers (none once signed in). */
    ssoButtons: OfferedProvider[];
    /** The directories (LDAP) whose users sign in with the page's own form. */
    ssoDirectories: OfferedProvider[];
    /** Session origins the page's forms may lead to (its form-action), besides its own. */
    formTargets: string[];
  }
}

/** Sends a rendered page with the page's security headers. */
export function sendPage(reply: FastifyReply, page: { text: string }, status = 200) {
  setPageHeaders(reply, pagePolicy({ formTargets: reply.request.formTargets ?? [] }));
  return reply.code(status).type('text/html; charset=utf-8').send(page.text);
}
