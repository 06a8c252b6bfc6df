import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { MAX_CONTENT_BYTES } from '../../file-mappings';
import type { AuditTrail } from '../../audit';
import { auditedSettingsChanges, type ApplyOptions, type SettingsService } from '../../settings';
import { sendPage } from '../../web';
import { type AdminSection, consoleContext, personOf } from '../admin-context';
import { acceptMultipartForms } from './multipart-form';
import { ticked } from './section-forms';
import { requireGrantsOf } from './settings-grants';
import { planDigest, settingsPage, settingsResultPage } from './settings-code.views';

/** A settings file with a few inline scripts of the most a file mapping may hold. */
const FILE_LIMIT_BYTES = 4 * MAX_CONTENT_BYTES;
const FILE_NAME = 'settings.yaml';

const SettingsForm = Type.Object(
  {
    file: Type.String({ maxLength: FILE_LIMIT_BYTES }),
    prune: Type.Optional(Type.String()),
    /** The digest of the plan the person saw (planDigest); an apply of another plan shows it first. */
    plan: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: true },
);

/**
 * Runs the settings service's apply (the CLI's `settings apply`) on uploaded text. The service
 * reads a file, so the text is written to a private folder of its own for the call: a
 * `content_file` it names is then simply not there, and reported as the CLI would.
 */
async function applyText(settings: SettingsService, text: string, options: ApplyOptions) {
  const dir = await mkdtemp(path.join(tmpdir(), 'admin-settings-'));
  try {
    const file = path.join(dir, FILE_NAME);
    await writeFile(file, text, { mode: 0o600 });
    return await settings.apply(file, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Settings as code: download the export; upload a file, see its dry-run plan, then apply it. */
export function settingsCodeSection({
  settings,
  audit,
}: {
  settings: SettingsService;
  /** Records an apply's changes in its transaction, as `settings apply` does, by the person. */
  audit: AuditTrail;
}): AdminSection {
  return {
    id: 'settings',
    title: 'Settings as code',
    viewPermission: 'settings.view',
    routes: async (app) => {
      acceptMultipartForms(app, FILE_LIMIT_BYTES);

      app.get('/', { schema: { hide: true } }, async (request, reply) =>
        sendPage(reply, settingsPage(personOf(request))),
      );

      app.get('/export', { schema: { hide: true } }, async (_request, reply) =>
        reply
          .type('application/yaml; charset=utf-8')
          .header('content-disposition', `attachment; filename="${FILE_NAME}"`)
          .header('cache-control', 'no-store')
          .send(await settings.export()),
      );

      // A dry run writes nothing: reading the settings is enough, as for the export.
      app.post(
        '/plan',
        { config: { permission: 'settings.view' }, schema: { hide: true, body: SettingsForm } },
        async (request, reply) => {
          const { file, prune } = request.body;
          const options = { prune: ticked(prune), dryRun: true };
          const result = await applyText(settings, file, options);
          return sendPage(reply, settingsResultPage(personOf(request), result, file, options));
        },
      );

      app.post(
        '/apply',
        {
          // Each change is recorded in the apply's own transaction (below), not as one event.
          config: { permission: 'settings.modify', audit: false },
          schema: { hide: true, body: SettingsForm },
        },
        async (request, reply) => {
          const { file, prune, plan } = request.body;
          const person = personOf(request);
          // The settings may have changed since the plan was shown: then the new plan is shown
          // instead of applied. (Each apply re-plans in its own transaction; this keeps what is
          // written to what the person saw, but for a change landing between these two calls.)
          const dryRun = { prune: ticked(prune), dryRun: true };
          const planned = await applyText(settings, file, dryRun);
          if (planned.status !== 'dry_run' || planDigest(planned.changes) !== plan) {
            const stale = planned.status === 'dry_run';
            return sendPage(reply, settingsResultPage(person, planned, file, dryRun, stale));
          }
          const context = consoleContext(request);
          const options: ApplyOptions = {
            ...dryRun,
            dryRun: false,
            checkChanges: (changes) => requireGrantsOf(person, changes),
            recordChanges: async (tx, changes) => {
              if (context) await audit.recordIn(tx, context, auditedSettingsChanges(changes));
            },
          };
          const result = await applyText(settings, file, options);
          return sendPage(reply, settingsResultPage(person, result, file, options));
        },
      );
    },
  };
}
