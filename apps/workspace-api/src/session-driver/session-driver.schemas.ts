import { Type, type Static } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';

// A point on the session's screen: the service checks it against the screen's real size.
// The actions are told apart by their `type` alone: with `additionalProperties: false` the
// validator (removeAdditional) would strip one kind's fields while trying another's.
const X = Type.Integer({ minimum: 0, maximum: 16_383, description: 'Pixels from the left' });
const Y = Type.Integer({ minimum: 0, maximum: 16_383, description: 'Pixels from the top' });

export const InputActionSchema = Type.Union([
  Type.Object(
    { type: Type.Literal('move'), x: X, y: Y },
    { description: 'Moves the pointer there' },
  ),
  Type.Object(
    {
      type: Type.Literal('click'),
      x: X,
      y: Y,
      button: Type.Optional(
        Type.Union([Type.Literal('left'), Type.Literal('middle'), Type.Literal('right')]),
      ),
      double: Type.Optional(Type.Boolean()),
    },
    { description: 'Moves the pointer there and presses and releases a button (left)' },
  ),
  Type.Object(
    {
      type: Type.Literal('scroll'),
      x: X,
      y: Y,
      delta: Type.Integer({
        minimum: -50,
        maximum: 50,
        not: { const: 0 },
        description: 'Wheel steps: negative up, positive down',
      }),
    },
    { description: 'Turns the wheel with the pointer there' },
  ),
  Type.Object(
    {
      type: Type.Literal('key'),
      keys: Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'A key or chord, X names in any case joined by +: "Return", "ctrl+c", "ctrl+alt+Delete", "shift+F10"',
      }),
    },
    { description: 'Presses the keys in order and releases them in reverse' },
  ),
  Type.Object(
    {
      type: Type.Literal('type'),
      text: Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'Typed key by key; a line break is Return, any Unicode character its keysym',
      }),
    },
    { description: 'Types the text' },
  ),
]);
export type InputAction = Static<typeof InputActionSchema>;

export const SendInputBodySchema = Type.Object({
  kasm_id: IdSchema,
  user_id: Type.Optional(IdSchema),
  actions: Type.Array(InputActionSchema, { minItems: 1, maxItems: 100 }),
});
export type SendInputBody = Static<typeof SendInputBodySchema>;

export const InputSentSchema = Type.Object({
  kasm_id: Type.String(),
  width: Type.Integer({ description: "The screen's width in pixels" }),
  height: Type.Integer({ description: "The screen's height in pixels" }),
  current_time: Type.String(),
});

const size = (description: string) => Type.Integer({ minimum: 1, maximum: 16_384, description });
export const FrameBodySchema = Type.Object({
  kasm_id: IdSchema,
  user_id: Type.Optional(IdSchema),
  region: Type.Optional(
    Type.Object(
      {
        x: X,
        y: Y,
        width: Type.Optional(size('Absent: to the right edge')),
        height: Type.Optional(size('Absent: to the bottom edge')),
      },
      {
        description: 'Only this part of the screen (absent: all of it); it must lie on the screen',
      },
    ),
  ),
});
export type FrameBody = Static<typeof FrameBodySchema>;

/** get_kasm_frame's answer: a PNG body, which the serializer passes through untouched. */
export const PngSchema = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: "image/png: the session's whole screen, as the stream last drew it",
});
