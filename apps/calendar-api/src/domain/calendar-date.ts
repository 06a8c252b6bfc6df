// Calendar dates are whole days since 1970-01-01, so arithmetic never meets a time zone or DST.
export type Day = number;

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dayFromParts(year: number, month: number, day: number): Day | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return null;
  return date.getTime() / MS_PER_DAY;
}

export function parseIsoDay(text: string): Day | null {
  const match = ISO_DATE.exec(text);
  return match ? dayFromParts(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

export function formatDay(day: Day): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function partsOfDay(day: Day): { year: number; month: number; day: number } {
  const date = new Date(day * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday, like Date#getDay. */
export function weekdayOf(day: Day): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The Monday of the week an anchor designates; a weekend anchor means the week after it. */
export function mondayForAnchor(anchor: Day): Day {
  const weekday = weekdayOf(anchor);
  if (weekday === 6) return anchor + 2;
  if (weekday === 0) return anchor + 1;
  return anchor - (weekday - 1);
}

export function noonUtc(day: Day): Date {
  return new Date(day * MS_PER_DAY + MS_PER_DAY / 2);
}

/** The candidate closest to the reference; a tie goes to the later one. */
export function nearestTo(reference: Day, candidates: readonly (Day | null)[]): Day | null {
  let best: Day | null = null;
  for (const candidate of candidates) {
    if (candidate === null) continue;
    if (
      best === null ||
      Math.abs(candidate - reference) < Math.abs(best - reference) ||
      (Math.abs(candidate - reference) === Math.abs(best - reference) && candidate > best)
    ) {
      best = candidate;
    }
  }
  return best;
}
