/**
 * Reads CHANNEL_PERIODS, `C123=CSA,C456=CSP`: which period each chat channel's events belong
 * to. Throws with a readable message on a malformed entry, so a bad setting stops the start.
 */
export function parseChannelPeriods(text: string): Map<string, string> {
  const periods = new Map<string, string>();
  for (const entry of text.split(',')) {
    if (entry.trim() === '') continue;
    const [channel, period, ...rest] = entry.split('=').map((part) => part.trim());
    if (!channel || period === undefined || rest.length > 0) {
      throw new Error(`"${entry.trim()}" is not CHANNEL=PERIOD`);
    }
    if (period.length > 32)
      throw new Error(`the period of ${channel} is longer than 32 characters`);
    if (periods.has(channel)) throw new Error(`${channel} is listed twice`);
    periods.set(channel, period);
  }
  return periods;
}
