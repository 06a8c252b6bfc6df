import { Type } from '@sinclair/typebox';
import { kindBlocks, SsoProviderFields } from '../sso';

const Strict = { additionalProperties: false } as const;

/** An identity provider in the file: its kind's settings under the kind's name (`oidc:`). */
export const SsoProviderSettingSchema = Type.Object(
  {
    name: SsoProviderFields.name,
    kind: SsoProviderFields.kind,
    display_name: SsoProviderFields.display_name,
    enabled: Type.Optional(SsoProviderFields.enabled),
    ...kindBlocks(),
    group_mappings: Type.Optional(
      Type.Array(
        Type.Object(
          {
            value: SsoProviderFields.value,
            group: Type.String({ minLength: 1, description: 'An existing group, by name' }),
          },
          Strict,
        ),
        { description: 'Users the directory names with `value` are members of `group`' },
      ),
    ),
  },
  {
    ...Strict,
    description:
      'Identified by name; described whole (no group_mappings: none). Secrets only by reference: {env: VARIABLE} or {file: /path}',
  },
);
