import { Value } from '@sinclair/typebox/value';
import { IdSchema, toUuid, toWireId } from './ids';

const WIRE = '50faa5439c574b518cd868dac9256e4b';
const DASHED = '50faa543-9c57-4b51-8cd8-68dac9256e4b';

describe('toUuid', () => {
  it('turns a wire id into the dashed form Postgres stores', () => {
    expect(toUuid(WIRE)).toBe(DASHED);
  });

  it('leaves a dashed lower-case uuid unchanged', () => {
    expect(toUuid(DASHED)).toBe(DASHED);
  });

  it('lower-cases upper-case input, dashed or not', () => {
    expect(toUuid(WIRE.toUpperCase())).toBe(DASHED);
    expect(toUuid(DASHED.toUpperCase())).toBe(DASHED);
  });
});

describe('toWireId', () => {
  it('strips the dashes of a stored uuid', () => {
    expect(toWireId(DASHED)).toBe(WIRE);
  });

  it('lower-cases upper-case input and leaves a wire id unchanged', () => {
    expect(toWireId(DASHED.toUpperCase())).toBe(WIRE);
    expect(toWireId(WIRE)).toBe(WIRE);
  });

  it('round-trips with toUuid', () => {
    expect(toWireId(toUuid(WIRE))).toBe(WIRE);
    expect(toUuid(toWireId(DASHED))).toBe(DASHED);
  });
});

describe('IdSchema', () => {
  // Checked both by TypeBox and by the raw pattern with the `u` flag, as ajv compiles it.
  const accepts = (id: string) =>
    Value.Check(IdSchema, id) && new RegExp(IdSchema.pattern as string, 'u').test(id);

  it.each([
    ['an undashed lower-case', WIRE],
    ['an undashed upper-case', WIRE.toUpperCase()],
    ['a dashed lower-case', DASHED],
    ['a dashed upper-case', DASHED.toUpperCase()],
    ['a dashed mixed-case', '50FAA543-9c57-4B51-8cd8-68DAC9256e4b'],
  ])('accepts %s id', (_label, id) => {
    expect(accepts(id)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['an id one character short', WIRE.slice(1)],
    ['an id one character long', `${WIRE}0`],
    ['a dashed id one character short', DASHED.slice(1)],
    ['an id with a non-hex character', `${WIRE.slice(0, 31)}g`],
    ['an id with dashes in the wrong places', '50faa5-439c57-4b51-8cd8-68dac9256e4b'],
    ['an id with a doubled dash', '50faa543--9c57-4b51-8cd8-68dac9256e4b'],
    ['an id with a leading dash', `-${WIRE}`],
    ['an id in braces', `{${DASHED}}`],
    ['an id with a urn prefix', `urn:uuid:${DASHED}`],
    ['an id with surrounding whitespace', ` ${WIRE} `],
    ['an id with a trailing newline', `${WIRE}\n`],
    ['an integer id', '42'],
  ])('rejects %s', (_label, id) => {
    expect(accepts(id)).toBe(false);
  });

  it('rejects values that are not strings', () => {
    expect(Value.Check(IdSchema, 42)).toBe(false);
    expect(Value.Check(IdSchema, null)).toBe(false);
  });
});
