import { toUuid, toWireId } from '@platform/schemas';
import { toAgentResponse, type createAgentsService } from '../agents';
import { type ApiKeysService, toApiKeyResponse } from '../api-keys';
import type { createAttributesService } from '../attributes';
import { type FileMappingsRepository, toFileMappingResponse } from '../file-mappings';
import {
  type createGroupImagesService,
  type createGroupsService,
  toGroupSnapshot,
} from '../groups';
import { type ImagesService, toImageResponse } from '../images';
import { type createRegistryService, toRegistryResponse } from '../registry';
import { inputSummary } from '../session-driver';
import { auditedCommand, type SessionsService, toKasmResponse } from '../sessions';
import { type StagingService, toStagingConfigResponse } from '../staging';
import { toUserResponse, type UsersService } from '../users';
import { toZoneResponse, type ZonesService } from '../zones';
import type { TargetKind, TargetKinds } from './audit-event';

/** The services whose reads give the snapshots. */
export interface AuditSources {
  users: Pick<UsersService, 'find'>;
  attributes: Pick<ReturnType<typeof createAttributesService>, 'get'>;
  groups: Pick<ReturnType<typeof createGroupsService>, 'find'>;
  groupImages: Pick<ReturnType<typeof createGroupImagesService>, 'list'>;
  images: Pick<ImagesService, 'find'>;
  agents: Pick<ReturnType<typeof createAgentsService>, 'list'>;
  zones: Pick<ZonesService, 'list'>;
  fileMappings: Pick<FileMappingsRepository, 'find'>;
  registries: Pick<ReturnType<typeof createRegistryService>, 'find'>;
  apiKeys: Pick<ApiKeysService, 'list'>;
  sessions: Pick<SessionsService, 'find'>;
  staging: Pick<StagingService, 'list'>;
  /** An identity provider as get_sso_providers answers it (secrets by reference only). */
  ssoProviders: { find(name: string): Promise<object> };
}

/** A target read by its id alone: `load` gets the id from the request or the answer. */
function byId(idField: string, load: (id: string) => Promise<object | null>): TargetKind {
  return {
    idField,
    load: (ref) => (typeof ref[idField] === 'string' ? load(ref[idField]) : Promise.resolve(null)),
  };
}

const sameId = (a: string) => (row: { id: string }) => toWireId(row.id) === toWireId(a);

/**
 * Every type of target a write may name (its route's `audit` config), with its snapshot: the
 * wire form its read operation answers, which already leaves secrets out.
 */
export function auditTargetKinds(s: AuditSources): TargetKinds {
  return {
    user: {
      idField: 'user_id',
      alsoNamedBy: ['username'],
      load: async (ref) =>
        ref.user_id === undefined && ref.username === undefined
          ? null
          : toUserResponse(await s.users.find(ref as { user_id?: string; username?: string })),
    },
    user_attributes: byId('user_id', (id) => s.attributes.get({ user_id: id })),
    // With its Allowed Workspaces, which add_images_group and remove_images_group change.
    group: byId('group_id', async (id) =>
      toGroupSnapshot(await s.groups.find(id), await s.groupImages.list(id)),
    ),
    image: byId('image_id', async (id) => toImageResponse(await s.images.find(id))),
    agent: byId('agent_id', async (id) => {
      const agent = (await s.agents.list()).find(sameId(id));
      return agent ? toAgentResponse(agent) : null;
    }),
    zone: byId('zone_id', async (id) => {
      const zone = (await s.zones.list()).find(sameId(id));
      return zone ? toZoneResponse(zone) : null;
    }),
    file_mapping: byId('file_mapping_id', async (id) => {
      const mapping = await s.fileMappings.find(toUuid(id));
      return mapping ? toFileMappingResponse(mapping) : null;
    }),
    registry: byId('registry_id', async (id) => toRegistryResponse(await s.registries.find(id))),
    api_key: byId('api_key_id', async (id) => {
      const key = (await s.apiKeys.list()).find(sameId(id));
      return key ? toApiKeyResponse(key) : null;
    }),
    session: byId('kasm_id', async (id) => toKasmResponse(await s.sessions.find(id))),
    // exec_command_kasm: the session, and the command's digest, user and privileged flag.
    session_command: {
      idField: 'kasm_id',
      refFrom: (body) => ({ kasm_id: body.kasm_id, command: auditedCommand(body.exec_config) }),
      load: async (ref) =>
        typeof ref.kasm_id !== 'string'
          ? null
          : { ...toKasmResponse(await s.sessions.find(ref.kasm_id)), command: ref.command ?? null },
    },
    // send_kasm_input: the session, and what was sent: counts and the typed text's digest only.
    session_input: {
      idField: 'kasm_id',
      refFrom: (body) => ({ kasm_id: body.kasm_id, input: inputSummary(body.actions) }),
      load: async (ref) =>
        typeof ref.kasm_id !== 'string'
          ? null
          : { ...toKasmResponse(await s.sessions.find(ref.kasm_id)), input: ref.input ?? null },
    },
    sso_provider: {
      idField: 'name',
      load: (ref) =>
        typeof ref.name === 'string'
          ? s.ssoProviders.find(ref.name).catch(() => null)
          : Promise.resolve(null),
    },
    staging_config: byId('staging_config_id', async (id) => {
      const config = (await s.staging.list()).find(sameId(id));
      return config ? toStagingConfigResponse(config) : null;
    }),
  };
}
