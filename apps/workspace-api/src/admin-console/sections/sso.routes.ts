import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import {
  isSsoKind,
  SSO_KIND_NAMES,
  SSO_KINDS,
  type ProviderConfig,
  type SsoConfigService,
  type SsoProviderResponse,
} from '../../sso';
import { sendPage } from '../../web';
import { type AdminSection, personOf } from '../admin-context';
import { DoneQuery, noticeOf, ticked } from './section-forms';
import { providerPage, ssoPage, type KindField, type ProviderForm } from './sso.views';

const NOTICES = {
  created: 'The provider was added.',
  saved: 'The provider was saved.',
  enabled: 'The provider was enabled.',
  disabled: 'The provider was disabled.',
  deleted: 'The provider was deleted.',
};

const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });
const ProviderBody = Type.Object(
  {
    name: Type.String({ maxLength: 64 }),
    kind: Type.String({ maxLength: 16 }),
    display_name: Type.String({ maxLength: 128 }),
    enabled: Type.Optional(Type.String({ maxLength: 10 })),
    settings: Type.String({ maxLength: 65_536 }),
    mappings: Type.String({ maxLength: 65_536 }),
  },
  { additionalProperties: true },
);
type ProviderBodyType = Static<typeof ProviderBody>;

/** What the form tells of a kind's settings, read from its schema: each kind explains itself. */
function kindFields(kind: string): KindField[] {
  const schema = isSsoKind(kind) ? (SSO_KINDS[kind].settings as TObject) : undefined;
  if (!schema?.properties) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]: [string, TSchema]) => ({
    name,
    required: required.has(name) && property.default === undefined,
    fallback: property.default === undefined ? '' : JSON.stringify(property.default),
    description: String(property.description ?? ''),
  }));
}

const yaml = () => import('yaml');

/** The form of a stored provider: its block as YAML, its mappings a line each. */
async function formOf(p: SsoProviderResponse): Promise<ProviderForm> {
  const { stringify } = await yaml();
  return {
    name: p.name,
    kind: p.kind,
    displayName: p.display_name,
    enabled: p.enabled,
    settings: stringify((p as Record<string, unknown>)[p.kind] ?? {}),
    mappings: p.group_mappings.map((m) => `${m.value} = ${m.group_name}`).join('\n'),
  };
}

/** A new provider's form: the kind's required settings, to fill in. */
const blankForm = (kind: string): ProviderForm => ({
  name: '',
  kind,
  displayName: '',
  enabled: true,
  settings: kindFields(kind)
    .filter((f) => f.required)
    .map((f) => `${f.name}: \n`)
    .join(''),
  mappings: '',
});

const formFrom = (body: ProviderBodyType): ProviderForm => ({
  name: body.name.trim(),
  kind: body.kind,
  displayName: body.display_name,
  enabled: ticked(body.enabled),
  settings: body.settings,
  mappings: body.mappings,
});

/** The form as the service takes it, and what in its text cannot be read at all. */
async function configFrom(form: ProviderForm) {
  const problems: FieldProblem[] = [];
  let block: unknown = {};
  try {
    block = (await yaml()).parse(form.settings) ?? {};
  } catch (error) {
    problems.push({ field: form.kind, message: `is not YAML (${(error as Error).message})` });
  }
  const mappings = form.mappings
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .flatMap((line, i) => {
      const at = line.indexOf('=');
      const value = line.slice(0, at).trim();
      const groupName = line.slice(at + 1).trim();
      if (at < 0 || !value || !groupName) {
        problems.push({ field: `group_mappings[${i}]`, message: 'must be "value = Group name"' });
        return [];
      }
      return [{ value, groupName }];
    });
  const config: ProviderConfig = {
    name: form.name,
    kind: form.kind,
    displayName: form.displayName.trim(),
    enabled: form.enabled,
    blocks: { [form.kind]: block },
    mappings,
  };
  return { config, problems };
}

const write = (operation: string) =>
  ({
    permission: 'settings.modify',
    audit: 'sso_provider',
    operation,
    auditInChange: true,
  }) as const;

/** Sign-in providers: list, add, edit (with "test this configuration"), enable, disable, delete. */
export function ssoSection({ ssoConfig }: { ssoConfig: SsoConfigService }): AdminSection {
  return {
    id: 'sso',
    title: 'Sign-in providers',
    viewPermission: 'settings.view',
    routes: async (app) => {
      const showForm = (
        request: FastifyRequest,
        form: ProviderForm,
        creating: boolean,
        problems: FieldProblem[] | null,
      ) =>
        providerPage(personOf(request), {
          form,
          creating,
          fields: kindFields(form.kind),
          problems,
        });

      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) =>
        sendPage(
          reply,
          ssoPage(
            personOf(request),
            await ssoConfig.list(),
            SSO_KIND_NAMES,
            noticeOf(NOTICES, request.query.done),
          ),
        ),
      );

      app.get(
        '/new',
        {
          schema: {
            hide: true,
            querystring: Type.Object({ kind: Type.String({ maxLength: 16 }) }),
          },
        },
        async (request, reply) => {
          const kind = SSO_KIND_NAMES.find((k) => k === request.query.kind) ?? SSO_KIND_NAMES[0];
          return sendPage(reply, showForm(request, blankForm(kind), true, null));
        },
      );

      app.get('/:name', { schema: { hide: true, params: NameParams } }, async (request, reply) => {
        const form = await formOf(await ssoConfig.find(request.params.name));
        return sendPage(reply, showForm(request, form, false, null));
      });

      // Saves nothing: the problems (or none) are shown on the form, as it was filled in.
      app.post(
        '/test',
        {
          config: { permission: 'settings.modify', audit: false },
          schema: { hide: true, body: ProviderBody },
        },
        async (request, reply) => {
          const form = formFrom(request.body);
          const { config, problems } = await configFrom(form);
          const found = [...problems, ...(await ssoConfig.test(config))];
          const creating = !(await ssoConfig.list()).some((p) => p.name === form.name);
          return sendPage(reply, showForm(request, form, creating, found));
        },
      );

      /** A save refused for its content shows the form again with every problem. */
      async function save(
        request: FastifyRequest,
        reply: FastifyReply,
        form: ProviderForm,
        creating: boolean,
      ) {
        const { config, problems } = await configFrom(form);
        try {
          if (problems.length > 0)
            throw withFieldErrors(new ValidationFailedError('The form is not valid'), problems);
          if (creating) await ssoConfig.create(config, request.audit);
          else await ssoConfig.update(config, request.audit);
        } catch (error) {
          if (!(error instanceof ValidationFailedError)) throw error;
          const errors = (error as { errors?: FieldProblem[] }).errors ?? [];
          return sendPage(reply, showForm(request, form, creating, errors), 400);
        }
        return reply.redirect(`/admin/sso?done=${creating ? 'created' : 'saved'}`, 303);
      }

      app.post(
        '/create',
        { config: write('create_sso_provider'), schema: { hide: true, body: ProviderBody } },
        async (request, reply) => save(request, reply, formFrom(request.body), true),
      );
      app.post(
        '/:name/update',
        {
          config: write('update_sso_provider'),
          schema: { hide: true, params: NameParams, body: ProviderBody },
        },
        async (request, reply) =>
          save(request, reply, { ...formFrom(request.body), name: request.params.name }, false),
      );

      for (const [path, enabled] of [
        ['enable', true],
        ['disable', false],
      ] as const)
        app.post(
          `/:name/${path}`,
          { config: write(`${path}_sso_provider`), schema: { hide: true, params: NameParams } },
          async (request, reply) => {
            await ssoConfig.setEnabled(request.params.name, enabled, request.audit);
            return reply.redirect(`/admin/sso?done=${path}d`, 303);
          },
        );

      app.post(
        '/:name/delete',
        { config: write('delete_sso_provider'), schema: { hide: true, params: NameParams } },
        async (request, reply) => {
          await ssoConfig.remove(request.params.name, request.audit);
          return reply.redirect('/admin/sso?done=deleted', 303);
        },
      );
    },
  };
}
