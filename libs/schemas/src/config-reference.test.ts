import { Type } from '@sinclair/typebox';
import { configReference } from './config-reference';

const render = (properties: Parameters<typeof Type.Object>[0]) =>
  configReference('demo', Type.Object(properties), 'npm run demo -- config reference')
    .split('\n')
    .filter((line) => line.startsWith('| `'));

describe('configReference', () => {
  it('names each variable with its type, default and meaning, in the schema order', () => {
    expect(
      render({
        PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001, description: 'Port' }),
        POOL: Type.Integer({ minimum: 1, default: 10, description: 'Connections' }),
        ON: Type.Boolean({ default: false, description: 'Switch' }),
      }),
    ).toEqual([
      '| `PORT` | integer 0–65535 | `3001` | Port |',
      '| `POOL` | integer ≥ 1 | `10` | Connections |',
      '| `ON` | boolean | `false` | Switch |',
    ]);
  });

  it('lists the values of a choice, and says which variables are required or may stay unset', () => {
    expect(
      render({
        MODE: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'off' }),
        URL: Type.String({ description: 'Where' }),
        HOST: Type.Optional(Type.String({ description: 'Engine' })),
        PREFIX: Type.String({ default: '', description: 'Prefix' }),
      }),
    ).toEqual([
      '| `MODE` | `on`, `off` | `off` |  |',
      '| `URL` | text | required | Where |',
      '| `HOST` | text | (unset) | Engine |',
      '| `PREFIX` | text | (empty) | Prefix |',
    ]);
  });

  it('keeps a | in a meaning inside its cell, and shows <PORT> as text', () => {
    expect(render({ A: Type.String({ default: 'x', description: 'a | b, <PORT>' }) })).toEqual([
      '| `A` | text | `x` | a \\| b, &lt;PORT> |',
    ]);
  });
});
