/** One sample of Prometheus's text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Each family's declared type (`# TYPE`), by name. */
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', ''];

/** As Go's strconv.ParseFloat, which Prometheus uses: Inf and NaN in any case. */
function parseValue(text: string): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value ${text}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`bad labels in: ${line}`);
    labels[match[1]] = match[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/**
 * Reads Prometheus's text format (version 0.0.4) strictly, as Prometheus's own parser does:
 * every line a comment, a blank or a sample; every sample's family declared by `# TYPE` before
 * it; label values quoted with only \\, \" and \n escaped; values Go floats. Throws at the first
 * line that breaks the format.
 */
export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(
        line,
      );
      if (type) types.set(type[1], type[2]);
      else if (!new RegExp(`^# HELP ${NAME} `).test(line)) throw new Error(`bad comment: ${line}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`bad sample: ${line}`);
    const [, name, labelText, value] = match;
    const family = SUFFIXES.map((s) =>
      name.endsWith(s) ? name.slice(0, name.length - s.length) : '',
    )
      .filter(Boolean)
      .find((base) => types.has(base));
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({ name, labels: parseLabels(labelText ?? '', line), value: parseValue(value) });
  }
  return { types, samples };
}

/** The sum of the samples with this name and these labels (among others); 0 when none match. */
export function sampleSum(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
