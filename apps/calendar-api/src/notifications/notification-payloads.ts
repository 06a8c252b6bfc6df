import type { FieldChange, NotificationContent, NotifiedEvent } from './notification-content';
import type { WebhookFormat } from '../domain';

export const DISCORD_CONTENT_LIMIT = 2000;
/** Slack's limit for a section block's text (the fallback `text` is kept to the same). */
export const SLACK_SECTION_LIMIT = 3000;
const ELLIPSIS = '…';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * `text` cut to at most `max` UTF-16 units with an ellipsis. Counting units (never fewer than
 * code points) keeps it within a limit counted either way, and cutting between grapheme
 * clusters never splits a surrogate pair or an emoji sequence.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    if (kept.length + segment.length > max - ELLIPSIS.length) break;
    kept += segment;
  }
  return kept + ELLIPSIS;
}

const dayOf = (date: string) => `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]} ${date}`;

const plural = (n: number) => `${n} ${n === 1 ? 'event' : 'events'}`;

export function headline(content: NotificationContent): string {
  const events = plural(content.total);
  switch (content.action) {
    case 'created':
      return `📅 ${events} added`;
    case 'replaced':
      return `✏️ Plan message edited: ${events} now`;
    case 'updated':
      return `✏️ ${events} changed`;
    case 'deleted':
      return `🗑️ ${events} removed`;
    case 'digest':
      return `🗓️ Tomorrow, ${dayOf(content.events[0]?.date ?? '')}: ${events}`;
    case 'reminder':
      return `⏰ Reminder: ${events} coming up`;
  }
}

function eventLine(event: NotifiedEvent): string {
  const labels = [event.type === 'general' ? null : event.type, event.period].filter(Boolean);
  return `• ${dayOf(event.date)}: ${event.title}${labels.length ? ` (${labels.join(', ')})` : ''}`;
}

/** `  title: "Quiz" → "Unit 5 quiz"`: was → now, on one line whatever the text holds. */
function changeLine({ field, was, now }: FieldChange): string {
  const show = (value: string) =>
    field === 'date' ? dayOf(value) : value === '' ? '(none)' : `"${value.replace(/\s+/g, ' ')}"`;
  return `    ${field}: ${show(was)} → ${show(now)}`;
}

/** The lines under the headline, with "…and N more" when not every event is listed. */
export function eventLines(content: NotificationContent): string[] {
  const lines = content.events.flatMap((event) => [
    eventLine(event),
    ...(event.changes ?? []).map(changeLine),
  ]);
  const unlisted = content.total - content.events.length;
  if (unlisted > 0) lines.push(`…and ${unlisted} more`);
  return lines;
}

/** Slack reads &, < and > as markup (`<!channel>` would ping everyone): they are escaped. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function slackPayload(content: NotificationContent) {
  const lines = eventLines(content).map(escapeSlack);
  const title = escapeSlack(headline(content));
  return {
    text: truncate([title, ...lines].join('\n'), SLACK_SECTION_LIMIT),
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: truncate([`*${title}*`, ...lines].join('\n'), SLACK_SECTION_LIMIT),
        },
      },
    ],
  };
}

export function discordPayload(content: NotificationContent) {
  return {
    content: truncate(
      [`**${headline(content)}**`, ...eventLines(content)].join('\n'),
      DISCORD_CONTENT_LIMIT,
    ),
    // Titles are user text: an "@everyone" in one must not ping the server.
    allowed_mentions: { parse: [] as string[] },
  };
}

/** The JSON body for a target: an object, serialized once by the dispatcher. */
export function payloadFor(format: WebhookFormat, content: NotificationContent): object {
  return format === 'slack' ? slackPayload(content) : discordPayload(content);
}
