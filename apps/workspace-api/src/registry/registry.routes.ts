import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toImageResponse } from '../images';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toRegistryResponse } from './registry-response';
import type { RegistryWorkspacesService } from './registry-workspaces.service';
import {
  AddRegistryBodySchema,
  GetRegistryWorkspacesBodySchema,
  InstallResultSchema,
  InstallWorkspaceBodySchema,
  RefreshResultSchema,
  RegistriesSchema,
  RegistryEnvelopeSchema,
  RegistryIdBodySchema,
  RegistryWorkspacesSchema,
} from './registry.schemas';
import type { RegistryService } from './registry.service';

const tags = ['registry'];
const security = API_KEY_SECURITY;

export const registryRoutes: FastifyPluginAsyncTypebox<{
  registries: RegistryService;
  registryWorkspaces: RegistryWorkspacesService;
}> = async (app, { registries, registryWorkspaces }) => {
  app.post(
    '/add_registry',
    {
      config: { permission: 'registries.modify', audit: 'registry', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          'Fetch, validate and store a workspace registry; broken entries are reported and skipped',
        body: AddRegistryBodySchema,
        response: { 200: RegistryEnvelopeSchema, ...errorResponses(409, 422) },
      },
    },
    async (request) => ({
      registry: toRegistryResponse(
        await registries.add(request.body.registry_url, undefined, request.audit),
      ),
    }),
  );

  app.post(
    '/get_registries',
    {
      config: { permission: 'images.view' },
      schema: {
        tags,
        security,
        summary: 'List registries',
        response: { 200: RegistriesSchema, ...errorResponses() },
      },
    },
    async () => ({ registries: (await registries.list()).map(toRegistryResponse) }),
  );

  app.post(
    '/refresh_registry',
    {
      config: { permission: 'registries.modify', audit: 'registry', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Fetch a registry again; reports the workspaces added, changed and removed',
        body: RegistryIdBodySchema,
        response: { 200: RefreshResultSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { registry, ...diff } = await registries.refresh(
        request.body.registry_id,
        undefined,
        request.audit,
      );
      return { registry: toRegistryResponse(registry), ...diff };
    },
  );

  app.post(
    '/delete_registry',
    {
      config: { permission: 'registries.modify', audit: 'registry', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete a registry; workspaces installed from it stay',
        body: RegistryIdBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await registries.remove(request.body.registry_id, request.audit);
      return {};
    },
  );

  app.post(
    '/get_registry_workspaces',
    {
      config: { permission: 'images.view' },
      schema: {
        tags,
        security,
        summary: "A registry's workspaces; incompatible ones only with show_incompatible",
        body: GetRegistryWorkspacesBodySchema,
        response: { 200: RegistryWorkspacesSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { registry_id: id, show_incompatible: all } = request.body;
      const { workspaces, hiddenIncompatible } = await registryWorkspaces.list(id, all ?? false);
      return {
        workspaces,
        platform_version: registryWorkspaces.series,
        hidden_incompatible: hiddenIncompatible,
      };
    },
  );

  app.post(
    '/install_workspace',
    {
      config: { permission: 'images.modify', audit: 'image', auditInChange: true },
      schema: {
        tags,
        security,
        summary: "Install a registry's workspace; an incompatible one needs force",
        body: InstallWorkspaceBodySchema,
        response: { 200: InstallResultSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { registry_id: registryId, name, force } = request.body;
      const installed = await registryWorkspaces.install(
        { registryId, name, force: !!force },
        request.audit,
      );
      return { image: toImageResponse(installed.image), ignored_config: installed.ignored };
    },
  );
};
