import { html, type Html } from '@platform/http';
import { checkbox, field } from '../admin-layout';
import { numberIn } from './form-numbers';
import { formProblem, ticked } from './section-forms';

/** A row of a policy table (images' or groups' *-policy-fields.ts): what the form needs of it. */
interface Switch {
  field: string;
  column: string;
  default: boolean;
  label: string;
}
interface Limit {
  field: string;
  column: string;
  label: string;
  minimum: number;
  maximum: number;
}
type Row = Record<string, unknown>;

const limitText = (value: unknown) =>
  value === null || value === undefined ? '' : String(value as number | bigint);

/**
 * A policy's fields in a form: a checkbox per switch (ticked: allowed) and a whole-number input
 * per limit (empty: no limit), as `row` holds them, or at their defaults without one.
 */
export function policyFieldset(
  legend: string,
  hint: string,
  row: object | undefined,
  switches: readonly Switch[],
  limits: readonly Limit[] = [],
): Html {
  const values = row as Row | undefined;
  // One policy per page: the hint's id is the page's only one.
  return html`<fieldset aria-describedby="policy-hint">
    <legend>${legend}</legend>
    <small id="policy-hint" class="muted">${hint}</small>
    <div class="choices">
      ${switches.map((s) =>
        checkbox(s.field, s.label, values ? values[s.column] === true : s.default),
      )}
    </div>
    ${
      limits.length > 0
        ? html`<div class="form-grid">
            ${limits.map((l) =>
              field(l.field, l.label, limitText(values?.[l.column]), {
                type: 'number',
                hint: `Empty: no limit; else ${l.minimum} to ${l.maximum}`,
                attrs: html`min="${l.minimum}" max="${l.maximum}" step="1"`,
              }),
            )}
          </div>`
        : null
    }
  </fieldset>`;
}

/** The policy as a sentence, for those who may see but not change it. */
export function policySummary(
  row: object,
  switches: readonly Switch[],
  limits: readonly Limit[] = [],
): string {
  const values = row as Row;
  return [
    ...switches.map((s) => `${s.label}: ${values[s.column] === true ? 'allowed' : 'refused'}`),
    ...limits.map((l) => `${l.label}: ${limitText(values[l.column]) || 'no limit'}`),
  ].join('; ');
}

/**
 * A form's policy fields as update_image or update_group take them: an unticked box is false, an
 * empty limit null (no limit); a limit that is not a whole number in range is a 400 naming it.
 */
export function policyInput<T>(
  body: Row,
  switches: readonly Switch[],
  limits: readonly Limit[] = [],
): Partial<T> {
  const limit = ({ field: name, minimum: min, maximum: max }: Limit) => {
    const value = body[name];
    if (value === undefined || value === '') return null;
    if (typeof value !== 'string') throw formProblem(name, 'must be a whole number');
    return value.trim() === '' ? null : numberIn(value, name, { min, max, whole: true });
  };
  return Object.fromEntries([
    ...switches.map((s) => [s.field, ticked(body[s.field])]),
    ...limits.map((l) => [l.field, limit(l)]),
  ]) as Partial<T>;
}
