import { describeIssues, MAX_PROBLEMS, type SchemaIssue } from './validation-messages';

const at = (
  keyword: string,
  params: Record<string, unknown>,
  parentSchema: Record<string, unknown> = {},
  instancePath = '/x',
  schemaPath = `#/properties/x/${keyword}`,
): SchemaIssue => ({ keyword, params, parentSchema, instancePath, schemaPath });

describe('describeIssues', () => {
  it('turns a union of constants into one "must be one of" naming every value', () => {
    const union = { anyOf: ['username', 'created', 'organization'].map((v) => ({ const: v })) };
    const issues = [
      ...['username', 'created', 'organization'].map((v, i) =>
        at(
          'const',
          { allowedValue: v },
          { const: v },
          '/sort_by',
          `#/properties/sort_by/anyOf/${i}/const`,
        ),
      ),
      at('anyOf', {}, union, '/sort_by', '#/properties/sort_by/anyOf'),
    ];
    expect(describeIssues(issues)).toEqual([
      { field: 'sort_by', message: 'must be one of: username, created, organization' },
    ]);
  });

  it('describes an array of 10 000 items each outside its union: the first problems, then a count', () => {
    // What Ajv reports for `permissions: [0, 1, …, 9999]`: per item, every branch's const and the
    // union itself. Matching each issue against every union made this quadratic (a request hung).
    const union = { anyOf: ['a', 'b', 'c'].map((v) => ({ const: v })) };
    const issues = Array.from({ length: 10_000 }, (_, item) => [
      ...['a', 'b', 'c'].map((v, i) =>
        at(
          'const',
          { allowedValue: v },
          { const: v },
          `/p/${item}`,
          `#/properties/p/items/anyOf/${i}/const`,
        ),
      ),
      at('anyOf', {}, union, `/p/${item}`, '#/properties/p/items/anyOf'),
    ]).flat();
    const problems = describeIssues(issues);
    expect(problems).toHaveLength(MAX_PROBLEMS + 1);
    expect(problems[0]).toEqual({ field: 'p.0', message: 'must be one of: a, b, c' });
    expect(problems.at(-1)).toEqual({
      field: 'body',
      message: `and ${10_000 - MAX_PROBLEMS} more problems like these`,
    });
  });

  it.each([
    [
      at('enum', { allowedValues: ['asc', 'desc'] }, { enum: ['asc', 'desc'] }),
      'must be one of: asc, desc',
    ],
    [
      at('pattern', {
        pattern:
          '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$',
      }),
      'must be a 32-character hex id (dashes allowed)',
    ],
    [at('pattern', { pattern: '\\S' }), 'must not be blank'],
    [
      at('pattern', { pattern: '^[a-z]+$' }, { description: 'lower-case letters' }),
      'must be lower-case letters',
    ],
    [at('pattern', { pattern: '^[a-z]+$' }), 'is not in the expected form'],
    [at('format', { format: 'date' }), 'must be a date as YYYY-MM-DD'],
    [
      at('format', { format: 'date-time' }),
      'must be a date and time in ISO 8601, e.g. 2026-11-21T09:30:00Z',
    ],
    [at('minLength', { limit: 1 }), 'must not be empty'],
    [at('maxLength', { limit: 64 }), 'must be at most 64 characters'],
    [at('type', { type: 'integer' }), 'must be a whole number'],
    [at('required', { missingProperty: 'name' }, {}, ''), 'is required'],
    [at('minimum', { limit: 1, comparison: '>=' }), 'must be at least 1'],
  ])('says %j in words: %s', (issue, message) => {
    expect(describeIssues([issue])[0].message).toBe(message);
  });
});
