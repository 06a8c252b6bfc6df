import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, setPageHeaders } from '@platform/http';

/** Whose session a connect link opens, as its page names it. */
export interface SessionOwner {
  username: string;
  workspace: string;
}

/**
 * Whether a connect link was followed by a browser's own page load (not a frame, not a script
 * or an API client) that is not signed in as anyone: it first sees whose session it enters.
 * Browsers send Sec-Fetch-Dest only to https and loopback origins; elsewhere a load that asks
 * for HTML counts.
 */
export function needsOwnerPage(request: FastifyRequest, signedInAs: string | null): boolean {
  if (signedInAs !== null) return false;
  const dest = request.headers['sec-fetch-dest'];
  return dest ? dest === 'document' : String(request.headers.accept ?? '').includes('text/html');
}

/**
 * The page a signed-out browser lands on from a connect link: it names the session's owner and
 * workspace before anything the session serves is shown, so that someone else's desktop never
 * passes for one's own (nor its sign-in prompts for the platform's). One link leads on.
 */
export function sendOwnerPage(reply: FastifyReply, owner: SessionOwner, next: string) {
  const name = escapeHtml(owner.username);
  setPageHeaders(reply);
  return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}’s session</title></head>
<body><main>
<h1>${name}’s session</h1>
<p>This link opens the session of <strong>${name}</strong> (${escapeHtml(owner.workspace)}).
Everything on the next page comes from that session, not from the platform: if it is not your
own, do not type your password or anything private there.</p>
<p><a href="${escapeHtml(next)}">Open ${name}’s session</a></p>
</main></body></html>
`);
}
