import { Type, type Static } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';

const Text = (maxLength: number) => Type.String({ maxLength });
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.Null()]));

export const AttributesSchema = Type.Object({
  user_id: Type.String(),
  default_image: Type.Union([Type.String(), Type.Null()], {
    description: 'The workspace request_kasm launches when it names none',
  }),
  show_tips: Type.Boolean(),
  auto_login_kasm: Type.Boolean(),
  toggle_control_panel: Type.Boolean(),
  theme: Type.String(),
  chat_sfx: Type.Boolean(),
  ssh_public_key: Type.String(),
  preferred_language: Type.String(),
  preferred_timezone: Type.String(),
});
export type AttributesResponse = Static<typeof AttributesSchema>;
export const AttributesEnvelopeSchema = Type.Object({ user_attributes: AttributesSchema });

export const UpdateAttributesBodySchema = Type.Object({
  target_user_attributes: Type.Object({
    user_id: IdSchema,
    default_image: Type.Optional(
      Type.Union([IdSchema, Type.Literal(''), Type.Null()], {
        description: 'An installed workspace id; "" clears it; null or absent leaves it',
      }),
    ),
    show_tips: Flag,
    auto_login_kasm: Flag,
    toggle_control_panel: Flag,
    theme: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 32 }), Type.Null()])),
    chat_sfx: Flag,
    ssh_public_key: Type.Optional(Type.Union([Text(16_384), Type.Null()])),
    preferred_language: Type.Optional(Type.Union([Text(64), Type.Null()])),
    preferred_timezone: Type.Optional(Type.Union([Text(64), Type.Null()])),
  }),
});
export type UpdateAttributesInput = Static<
  typeof UpdateAttributesBodySchema
>['target_user_attributes'];
