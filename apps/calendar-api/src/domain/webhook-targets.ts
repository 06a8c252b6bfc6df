export type WebhookFormat = 'slack' | 'discord';

export interface WebhookTarget {
  /** Stored in each outbox row and shown by GET /notifications; the URL never is. */
  name: string;
  format: WebhookFormat;
  url: string;
}

const NAME = /^(slack|discord)(-[a-z0-9][a-z0-9_-]{0,56})?$/;

/**
 * Reads NOTIFY_WEBHOOKS, `slack=https://hooks.slack.com/…,discord=https://discord.com/api/webhooks/…`.
 * A name is its format, optionally with a label (`slack-staff`) so one format can have several
 * targets. Throws with a readable message on a malformed entry, so a bad setting stops the start.
 */
export function parseWebhookTargets(text: string): WebhookTarget[] {
  const targets: WebhookTarget[] = [];
  for (const entry of text.split(',')) {
    if (entry.trim() === '') continue;
    const separator = entry.indexOf('=');
    const name = entry.slice(0, Math.max(separator, 0)).trim();
    const url = entry.slice(separator + 1).trim();
    if (separator < 0 || !NAME.test(name)) {
      // Echo only what looks like a name: a misplaced URL would print its secret.
      const shown = /^[\w-]{1,64}$/.test(name) ? `"${name}"` : 'an entry';
      throw new Error(`${shown} is not NAME=URL with NAME slack or discord, optionally -label`);
    }
    if (!isHttpUrl(url)) throw new Error(`the URL of ${name} is not an http(s) URL`);
    if (targets.some((t) => t.name === name)) throw new Error(`${name} is listed twice`);
    targets.push({ name, format: name.startsWith('slack') ? 'slack' : 'discord', url });
  }
  return targets;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
