// Weekly-plan messages as teachers post them: a "Week of" line, day lines with bullets, ranges,
// check-ins and grades, free-text lines naming a date (which go through chrono), and chatter
// that is ignored. `n` makes each message distinct (titles and week).
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** @param {number} n */
function mondayOf(n) {
  // Weeks from Monday 2025-01-06 onwards, cycling over about 20 years.
  const day = new Date(Date.UTC(2025, 0, 6) + (n % 1000) * 7 * 86_400_000);
  return { m: day.getUTCMonth() + 1, d: day.getUTCDate(), y: day.getUTCFullYear(), date: day };
}

/**
 * A 20-line weekly message; about 10 events, 3 lines read by chrono, 2 ignored.
 * @param {number} n
 */
export function weeklyMessage(n) {
  const { m, d, y, date } = mondayOf(n);
  const wednesday = new Date(date.getTime() + 2 * 86_400_000);
  return [
    `Week of ${m}/${d}/${y}`,
    `[Mon]: Unit ${n} intro`,
    `• Read chapter ${n % 30}`,
    '• Slides posted',
    `[Tue]: * Lab ${n} check-in`,
    '• Pair programming',
    `[Wed - Thu]: Project work ${n}`,
    '• Work in teams',
    '• Submit the plan',
    `[Fri]: ** Unit ${n} quiz`,
    '• Covers sections 1-4',
    '',
    `Field trip on ${MONTHS[wednesday.getUTCMonth()]} ${wednesday.getUTCDate()}`,
    `Guest speaker ${n} Friday`,
    'Reminder: bring laptops every day',
    '[Sat]: Optional review session',
    '• Room 204',
    '[Sun]: Rest',
    'Office hours Tue 3pm',
    'Have a great week!',
  ].join('\n');
}

/**
 * A semester plan: `lines` lines of consecutive weekly blocks.
 * @param {number} lines
 */
export function longMessage(lines, n = 0) {
  /** @type {string[]} */
  const blocks = [];
  for (let i = 0; blocks.length * 20 < lines; i++) blocks.push(weeklyMessage(n + i));
  return blocks.join('\n').split('\n').slice(0, lines).join('\n');
}
