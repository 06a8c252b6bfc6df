const SLACK_LINK = /<([^<>|]*)(?:\|([^<>]*))?>/g;

/**
 * Slack mrkdwn to plain text: `<target|label>` becomes the label, `<target>` the target, then
 * `&lt;` `&gt;` `&amp;` are unescaped. Links go first so an escaped `&lt;…&gt;` is never read as
 * a link, and `&amp;` goes last so `&amp;lt;` stays the literal text `&lt;`.
 */
export function decodeSlackText(text: string): string {
  return text
    .replace(SLACK_LINK, (_whole, target: string, label: string | undefined) => label ?? target)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
