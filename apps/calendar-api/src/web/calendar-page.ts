import { randomBytes } from 'node:crypto';
import { html, pagePolicy } from '@platform/http';
import type { Config } from '../config';
import { API_PREFIX } from '../api';

/** A fresh nonce per page: FullCalendar injects its stylesheet and marks it with this. */
export const newNonce = () => randomBytes(18).toString('base64url');

/**
 * The shared page policy, plus what FullCalendar 6 needs: it ships its CSS inside its script and
 * injects it as a <style> element, allowed by the page's nonce (workspace-api's page needs no
 * such relaxation), and its icon font comes as a data: URL.
 */
export const calendarPagePolicy = (nonce: string) =>
  pagePolicy({ styleNonce: nonce, dataFonts: true });

/**
 * The calendar page: a shell that calendar.js fills from the service's own JSON API. The auth
 * mode tells the script whether reads need a token and whether drags may write without one.
 */
export function calendarPage(config: Config, nonce: string): string {
  const name = config.CALENDAR_NAME;
  const feed = `${API_PREFIX}/calendar.ics`;
  // The page as written, byte for byte: Prettier would re-indent an html`` template's markup.
  // prettier-ignore
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="csp-nonce" content="${nonce}" />
    <title>${name}</title>
    <link rel="stylesheet" href="/assets/base.css" />
    <link rel="stylesheet" href="/assets/calendar.css" />
    <script src="/assets/fullcalendar.js" defer></script>
    <script src="/assets/calendar.js" defer></script>
  </head>
  <body data-auth="${config.CALENDAR_AUTH}" data-api="${API_PREFIX}">
    <a class="skip" href="#calendar">Skip to the calendar</a>
    <header class="top">
      <h1>${name}</h1>
      <nav aria-label="Links">
        <a href="${feed}" id="subscribe">Subscribe (iCalendar feed)</a>
        <a href="/docs">API reference</a>
      </nav>
    </header>
    <main>
      <form id="filters" class="filters" aria-label="Filters">
        <label for="type-filter">Type</label>
        <select id="type-filter" name="type"><option value="">All types</option></select>
        <label for="period-filter">Period</label>
        <select id="period-filter" name="period"><option value="">All periods</option></select>
        <ul id="legend" class="legend" aria-label="Colour of each type of event"></ul>
      </form>
      <form id="token-form" class="token" hidden>
        <label for="token">Token to move events</label>
        <input id="token" type="password" autocomplete="off" />
        <button type="submit">Use token</button>
      </form>
      <p id="status" role="status" class="status"></p>
      <div id="calendar"></div>
    </main>
    <dialog id="details" aria-labelledby="details-title">
      <h2 id="details-title"></h2>
      <dl id="details-fields"></dl>
      <form method="dialog"><button type="submit">Close</button></form>
    </dialog>
  </body>
</html>
`.text;
}
