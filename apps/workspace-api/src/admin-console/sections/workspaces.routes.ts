import { type TProperties, Type } from '@sinclair/typebox';
import { IdSchema, toWireId } from '@platform/schemas';
import { FILE_MAPPING_BODY_LIMIT_BYTES, FileMappingFields } from '../../file-mappings';
import {
  BYTES_PER_MB,
  CORES_MAX,
  CORES_MIN,
  MEMORY_MAX_MB,
  MEMORY_MIN_MB,
  profilePathProblems,
  WORKSPACE_POLICY_LIMITS,
  WORKSPACE_POLICY_SWITCHES,
} from '../../images';
import { sendPage } from '../../web';
import { type AdminSection, may, personOf } from '../admin-context';
import { acceptMultipartForms } from './multipart-form';
import { numberIn } from './form-numbers';
import { policyInput } from './policy-fields';
import { DoneQuery, noticeOf, ticked } from './section-forms';
import { registryPage } from './registries.views';
import { imagePage } from './workspace-image.views';
import { workspacesPage } from './workspaces.views';
import type { WorkspacesSectionDeps } from './workspaces-deps';

const NOTICES = {
  added: 'The registry was added.',
  refreshed: 'The registry was fetched again.',
  installed: 'The workspace was installed.',
  saved: 'The changes were saved.',
  mapped: 'The file mapping was added.',
  'mapping-saved': 'The file mapping was saved.',
  unmapped: 'The file mapping was deleted.',
};

const RegistryParams = Type.Object({ registryId: IdSchema });
const ImageParams = Type.Object({ imageId: IdSchema });
const MappingParams = Type.Object({ imageId: IdSchema, fileMappingId: IdSchema });
// Forms also carry the CSRF token and the checkboxes' fields.
const Form = <T extends TProperties>(fields: T) =>
  Type.Object(fields, { additionalProperties: true });
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

const RegistryForm = Form({ registry_url: Type.String({ minLength: 1, maxLength: 2048 }) });
const BrowseQuery = Type.Object({ ...DoneQuery.properties, all: Type.Optional(Type.String()) });
const InstallForm = Form({ name: Type.String({ minLength: 1, maxLength: 1024 }), force: Text(8) });
const ImageForm = Form({
  friendly_name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  cores: Type.String({ maxLength: 12 }),
  memory_mb: Type.String({ maxLength: 12 }),
  persistent_profile_path: Type.String({ maxLength: 1024 }),
  enabled: Text(8),
  ...Object.fromEntries(WORKSPACE_POLICY_LIMITS.map(({ field }) => [field, Text(24)])),
});
// The rules of create_file_mapping's fields, from the feature; the service checks content's bytes.
const MappingForm = Form({
  name: FileMappingFields.name,
  description: Type.Optional(FileMappingFields.description),
  destination: FileMappingFields.destination,
  executable: Text(8),
  content: Type.Optional(FileMappingFields.content),
});
type MappingFormBody = typeof MappingForm.static;
const ProfileCheck = Type.Object({ path: Type.String({ maxLength: 4096 }) });

const mappingFields = (body: MappingFormBody) => ({
  name: body.name,
  description: body.description ?? '',
  destination: body.destination,
  executable: ticked(body.executable),
  // Browsers send a textarea's line breaks as CRLF; scripts want LF.
  content: (body.content ?? '').replace(/\r\n/g, '\n'),
});

/**
 * Workspaces: registries (add, refresh, browse with compatibility, install) and each installed
 * workspace's resources, persistent profile path, file mappings and whether it is enabled.
 */
export function workspacesSection(deps: WorkspacesSectionDeps): AdminSection {
  const { images, registries, registryWorkspaces, fileMappings } = deps;
  const imageUrl = (imageId: string, done: string) =>
    `/admin/workspaces/images/${toWireId(imageId)}?done=${done}`;
  return {
    id: 'workspaces',
    title: 'Workspaces',
    viewPermission: 'images.view',
    routes: async (app) => {
      acceptMultipartForms(app, FILE_MAPPING_BODY_LIMIT_BYTES);

      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) => {
        const [rows, installed] = await Promise.all([registries.list(), images.list()]);
        const notice = noticeOf(NOTICES, request.query.done);
        return sendPage(reply, workspacesPage(personOf(request), rows, installed, notice));
      });

      app.post(
        '/registries/add',
        {
          config: { permission: 'registries.modify', audit: 'registry', operation: 'add_registry' },
          schema: { hide: true, body: RegistryForm },
        },
        async (request, reply) => {
          const registry = await registries.add(request.body.registry_url.trim());
          return reply.redirect(
            `/admin/workspaces/registries/${toWireId(registry.id)}?done=added`,
            303,
          );
        },
      );

      app.get(
        '/registries/:registryId',
        { schema: { hide: true, params: RegistryParams, querystring: BrowseQuery } },
        async (request, reply) => {
          const { registryId } = request.params;
          const all = request.query.all === '1';
          const [registry, listed, installed] = await Promise.all([
            registries.find(registryId),
            registryWorkspaces.list(registryId, all),
            images.list(),
          ]);
          const copies = installed.filter((i) => i.registryId === registry.id);
          const view = { registry, ...listed, series: registryWorkspaces.series, all, copies };
          const notice = noticeOf(NOTICES, request.query.done);
          return sendPage(reply, registryPage(personOf(request), view, notice));
        },
      );

      app.post(
        '/registries/:registryId/refresh',
        {
          config: {
            permission: 'registries.modify',
            audit: 'registry',
            operation: 'refresh_registry',
          },
          schema: { hide: true, params: RegistryParams },
        },
        async (request, reply) => {
          await registries.refresh(request.params.registryId);
          return reply.redirect(
            `/admin/workspaces/registries/${request.params.registryId}?done=refreshed`,
            303,
          );
        },
      );

      app.post(
        '/registries/:registryId/install',
        {
          config: {
            permission: 'images.modify',
            audit: 'registry',
            operation: 'install_workspace',
          },
          schema: { hide: true, params: RegistryParams, body: InstallForm },
        },
        async (request, reply) => {
          const { image } = await registryWorkspaces.install({
            registryId: request.params.registryId,
            name: request.body.name,
            force: ticked(request.body.force),
          });
          return reply.redirect(imageUrl(image.id, 'installed'), 303);
        },
      );

      app.get(
        '/images/:imageId',
        { schema: { hide: true, params: ImageParams, querystring: DoneQuery } },
        async (request, reply) => {
          const person = personOf(request);
          const { imageId } = request.params;
          const image = await images.find(imageId);
          const mappings = may(person, 'settings.view')
            ? await fileMappings.list({ image_id: imageId })
            : null;
          const notice = noticeOf(NOTICES, request.query.done);
          return sendPage(reply, imagePage(person, image, mappings, notice));
        },
      );

      app.post(
        '/images/:imageId',
        {
          config: { permission: 'images.modify', audit: 'image', operation: 'update_image' },
          schema: { hide: true, params: ImageParams, body: ImageForm },
        },
        async (request, reply) => {
          const { body } = request;
          const image = await images.update({
            image_id: request.params.imageId,
            friendly_name: body.friendly_name,
            cores: numberIn(body.cores, 'cores', { min: CORES_MIN, max: CORES_MAX }),
            memory:
              numberIn(body.memory_mb, 'memory_mb', {
                min: MEMORY_MIN_MB,
                max: MEMORY_MAX_MB,
                whole: true,
              }) * BYTES_PER_MB,
            persistent_profile_path: body.persistent_profile_path.trim(),
            enabled: ticked(body.enabled),
            ...policyInput<Parameters<typeof images.update>[0]>(
              body,
              WORKSPACE_POLICY_SWITCHES,
              WORKSPACE_POLICY_LIMITS,
            ),
          });
          return reply.redirect(imageUrl(image.id, 'saved'), 303);
        },
      );

      // The live check of the profile path: the very rules update_image applies.
      app.post(
        '/profile-path-check',
        { config: { permission: 'images.view' }, schema: { hide: true, body: ProfileCheck } },
        async (request) => ({ problems: profilePathProblems(request.body.path.trim()) }),
      );

      app.post(
        '/images/:imageId/mappings/create',
        {
          config: {
            permission: 'settings.modify',
            audit: 'image',
            operation: 'create_file_mapping',
          },
          schema: { hide: true, params: ImageParams, body: MappingForm },
        },
        async (request, reply) => {
          const { imageId } = request.params;
          await fileMappings.create({ image_id: imageId, ...mappingFields(request.body) });
          return reply.redirect(imageUrl(imageId, 'mapped'), 303);
        },
      );

      app.post(
        '/images/:imageId/mappings/:fileMappingId',
        {
          config: {
            permission: 'settings.modify',
            audit: 'file_mapping',
            operation: 'update_file_mapping',
          },
          schema: { hide: true, params: MappingParams, body: MappingForm },
        },
        async (request, reply) => {
          const { imageId, fileMappingId } = request.params;
          await fileMappings.update({
            file_mapping_id: fileMappingId,
            ...mappingFields(request.body),
          });
          return reply.redirect(imageUrl(imageId, 'mapping-saved'), 303);
        },
      );

      app.post(
        '/images/:imageId/mappings/:fileMappingId/delete',
        {
          config: {
            permission: 'settings.modify',
            audit: 'file_mapping',
            operation: 'delete_file_mapping',
          },
          schema: { hide: true, params: MappingParams },
        },
        async (request, reply) => {
          await fileMappings.remove(request.params.fileMappingId);
          return reply.redirect(imageUrl(request.params.imageId, 'unmapped'), 303);
        },
      );
    },
  };
}
