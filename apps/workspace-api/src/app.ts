import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createServiceApp, serviceFoundation, type ServiceAppOverrides } from '@platform/http';
import { metrics } from '@platform/metrics';
import { authThrottlePlugin } from '@platform/rate-limit';
import { requestSpans } from '@platform/tracing';
import { consolePages } from './admin-console';
import { agentsRoutes } from './agents';
import { apiKeysRoutes } from './api-keys';
import { ADMIN_API_PREFIX, API_DOCS, API_PREFIX, undocumentedAlias } from './api';
import { attributesRoutes } from './attributes';
import { auditPlugin, auditRoutes } from './audit';
import type { Config } from './config';
import { buildFeatures, type FeatureOverrides } from './features';
import { FILE_MAPPING_BODY_LIMIT_BYTES, fileMappingsRoutes } from './file-mappings';
import { groupImagesRoutes, groupsRoutes, membershipsRoutes } from './groups';
import { imagesRoutes, profilePathRoutes } from './images';
import { launchPlanRoutes } from './launch-plan';
import { loginsRoutes } from './logins';
import { ownRegistryRoutes } from './own-registry';
import { authPlugin, authThrottleOptions } from './plugins';
import { registryRoutes } from './registry';
import { sessionsRoutes, type SessionWorker } from './sessions';
import { ssoConfigRoutes } from './sso';
import { attachSessionsListener, sessionProxy } from './session-proxy';
import { sessionAudioRoutes } from './session-audio';
import { recordingsRoutes, type SessionRecordingFeature } from './session-recording';
import { sessionDriverRoutes } from './session-driver';
import { FILES_PANEL_ASSET, sessionFilesRoutes } from './session-files';
import { sendSessionPage, sessionPageAssets, sessionPageRoutes } from './session-page';
import { sharingPanelRoutes, sharingRoutes } from './session-sharing';
import { stagingRoutes } from './staging';
import { usersRoutes } from './users';
import { webPlugin } from './web';
import { zonesRoutes } from './zones';

export interface AppOverrides extends ServiceAppOverrides, FeatureOverrides {}

declare module 'fastify' {
  interface FastifyInstance {
    /** The session lifecycle's background work; tests run rounds of it directly. */
    sessionWorker: SessionWorker;
    /** Session recording's loop and recorder; tests start it themselves (SESSION_WORKER off). */
    recordings: SessionRecordingFeature;
    /**
     * The sessions listener's server (SESSION_PORT): the same app, answering only `/kasm/…`.
     * Whoever starts the app listens on it (server.ts; tests on a port of their own).
     */
    sessionsServer: Server;
  }
}

export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = createServiceApp(config, overrides);
  app.decorate('publicHttps', config.PUBLIC_URL.startsWith('https:'));
  app.decorate('sessionsServer', attachSessionsListener(app, config));
  const f = await buildFeatures(app, config, overrides);
  const { database, live, sessionWorker, audit } = f;

  // Before every route: its spans wrap their handlers.
  await app.register(requestSpans, { tracing: f.tracing });
  await app.register(metrics, { registry: f.registry, config });
  await app.register(serviceFoundation, {
    database: {
      ping: () => database.ping(),
      // A database handed in is its owner's to close.
      close: () => (overrides.database ? Promise.resolve() : database.close()),
    },
    docs: API_DOCS,
  });
  await app.register(authThrottlePlugin, authThrottleOptions(config));
  await app.register(
    sessionProxy,
    f.proxy.options({
      onUpstream: f.workspaceMetrics.proxyUpstream,
      signedInUser: f.signedInUser,
      sessionPolicy: f.sessionPolicy,
      recordStream: f.recording.admitStream,
      audit: f.audit.trail,
      landing: sendSessionPage,
    }),
  );
  await app.register(sessionFilesRoutes, { files: f.sessionFiles });
  await app.register(sessionPageRoutes, {
    controls: f.sessionControls,
    assets: sessionPageAssets(FILES_PANEL_ASSET),
  });
  await app.register(sessionAudioRoutes, { audio: f.sessionAudio });
  await app.register(sharingPanelRoutes, {
    sharing: f.sharing,
    admit: f.proxy.admission(f.signedInUser),
    admitAny: f.proxy.admission(f.signedInUser, false),
    audit: f.audit.trail,
  });
  await app.register(webPlugin, {
    logins: f.logins,
    sessions: f.sessions,
    launchSession: f.launchSession,
    images: f.images,
    icons: f.icons,
    zones: f.zones,
    sso: f.sso,
    sessionScheme: config.SESSION_URL_SCHEME,
    extend: consolePages({
      ...f,
      audit: audit.trail,
      auditLog: audit.auditLog,
      usernameDeleted: audit.usernameDeleted,
      permissionsOf: (userId) => f.data.groups.permissionsOf(userId),
    }),
  });
  await app.register(ownRegistryRoutes, { series: f.series });
  app.decorate('sessionWorker', sessionWorker);
  app.decorate('recordings', f.recording);
  if (config.SESSION_WORKER === 'on') {
    app.addHook('onReady', async () => sessionWorker.start());
    app.addHook('onReady', async () => f.recording.start());
  }
  app.addHook('onClose', async () => {
    await sessionWorker.stop();
    await f.recording.stop();
    f.driver.closeAll();
    await live.close();
  });

  const operations = async (api: FastifyInstance) => {
    await api.register(authPlugin, { apiKeys: f.apiKeys });
    await api.register(auditPlugin, { trail: audit.trail });
    await api.register(auditRoutes, { auditLog: audit.auditLog });
    await api.register(usersRoutes, { users: f.users, sessions: f.userSessions });
    await api.register(attributesRoutes, { attributes: f.attributes });
    await api.register(loginsRoutes, { logins: f.logins });
    await api.register(membershipsRoutes, { memberships: f.memberships });
    await api.register(groupsRoutes, { groups: f.groups });
    await api.register(groupImagesRoutes, { groupImages: f.groupImages });
    await api.register(imagesRoutes, { images: f.images });
    await api.register(registryRoutes, {
      registries: f.registries,
      registryWorkspaces: f.registryWorkspaces,
    });
    await api.register(apiKeysRoutes, { apiKeys: f.apiKeys });
    await api.register(zonesRoutes, { zones: f.zones });
    await api.register(ssoConfigRoutes, { ssoConfig: f.ssoConfig });
    await api.register(stagingRoutes, { staging: f.staging });
    await api.register(agentsRoutes, { agents: f.agents });
    await api.register(profilePathRoutes, { images: f.images });
    const bodyLimit = Math.max(config.BODY_LIMIT_BYTES, FILE_MAPPING_BODY_LIMIT_BYTES);
    await api.register(fileMappingsRoutes, { fileMappings: f.fileMappings, bodyLimit });
    await api.register(launchPlanRoutes, { launchPlans: f.launchPlans });
    await api.register(sessionsRoutes, { sessions: f.sessions, launchSession: f.launchSession });
    await api.register(sharingRoutes, { sharing: f.sharing });
    await api.register(sessionDriverRoutes, { driver: f.driver });
    await api.register(recordingsRoutes, { recordings: f.recording.service });
  };
  await app.register(operations, { prefix: API_PREFIX });
  await app.register(undocumentedAlias(operations), { prefix: ADMIN_API_PREFIX });

  return app;
}
