import { Type } from '@sinclair/typebox';
import { IdSchema, TimestampSchema, toTimestamp, toWireId } from '@platform/schemas';
import type { ApiKeyRow } from './api-keys.repository';
import { PERMISSIONS } from './permissions';

export const PermissionSchema = Type.Union(PERMISSIONS.map((p) => Type.Literal(p)));

export const ApiKeySchema = Type.Object({
  api_key_id: Type.String(),
  name: Type.String(),
  api_key: Type.String({ description: 'The public half of the credentials' }),
  permissions: Type.Array(Type.String()),
  read_only: Type.Boolean(),
  expires: TimestampSchema,
  revoked: TimestampSchema,
  created: TimestampSchema,
});

export const CreateApiKeyBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  permissions: Type.Array(PermissionSchema, { minItems: 1, maxItems: PERMISSIONS.length }),
  read_only: Type.Optional(Type.Boolean()),
  expires: Type.Optional(Type.String({ format: 'date-time' })),
});

export const IssuedApiKeySchema = Type.Object({
  api_key: ApiKeySchema,
  api_key_secret: Type.String({ description: 'Shown once; only its hash is stored' }),
});

export const RevokeApiKeyBodySchema = Type.Object({ api_key_id: IdSchema });

export function toApiKeyResponse(key: ApiKeyRow) {
  return {
    api_key_id: toWireId(key.id),
    name: key.name,
    api_key: key.key,
    permissions: key.permissions,
    read_only: key.readOnly,
    expires: toTimestamp(key.expiresAt),
    revoked: toTimestamp(key.revokedAt),
    created: toTimestamp(key.createdAt),
  };
}
