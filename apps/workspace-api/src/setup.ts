import { toWireId } from '@platform/schemas';
import { type ApiKeyRow, type ApiKeysService, toApiKeyResponse } from './api-keys';
import type { AuditedChange, HostAudit } from './audit';

/** A key issued or revoked on the host, as the audit trail keeps it (never its secret). */
export const apiKeyChange = (operation: string, key: ApiKeyRow): AuditedChange => ({
  operation,
  target: { type: 'api_key', id: toWireId(key.id) },
  before: null,
  after: toApiKeyResponse(key),
});

/**
 * `setup`'s first global_admin key, on an empty database only: its audit event is written in the
 * key's own transaction, so that the most powerful key never exists unrecorded.
 */
export function issueFirstKey(
  apiKeys: Pick<ApiKeysService, 'issueFirstAdminKey'>,
  { trail, context }: Pick<HostAudit, 'trail' | 'context'>,
) {
  return apiKeys.issueFirstAdminKey((tx, apiKey) =>
    trail.recordIn(tx, context, [apiKeyChange('create_api_key', apiKey)]),
  );
}
