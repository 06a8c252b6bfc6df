import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { createServiceApp, serviceFoundation, type ServiceAppOverrides } from '@platform/http';
import { backgroundRounds, createRegistry, metrics } from '@platform/metrics';
import { createOutboundFetch, createOutboundPolicy } from '@platform/outbound';
import { authThrottlePlugin } from '@platform/rate-limit';
import { requestSpans, startTracing } from '@platform/tracing';
import {
  adminConsole,
  apiKeysSection,
  auditSection,
  groupsSection,
  infrastructureSection,
  sessionsSection,
  settingsCodeSection,
  usersSection,
  workspacesSection,
} from './admin-console';
import { agentsRoutes, createAgentsService } from './agents';
import {
  type ApiKeyCache,
  apiKeysRoutes,
  createApiKeysRepository,
  createApiKeysService,
  serverKeyCaching,
} from './api-keys';
import type { Config } from './config';
import { openDatabase, type Database, type Tx } from './db';
import {
  createFileMappingsService,
  FILE_MAPPING_BODY_LIMIT_BYTES,
  fileMappingsRoutes,
  mappingTargets,
} from './file-mappings';
import {
  createGroupImagesService,
  createGroupsService,
  createMembershipsService,
  groupImagesRoutes,
  groupsRoutes,
  membershipsRoutes,
} from './groups';
import { createImagesService, imagesRoutes, profilePathRoutes } from './images';
import { createLaunchPlanService, launchPlanRoutes } from './launch-plan';
import { createWorkspaceMetrics } from './metrics';
import { enginePolicy, type Engines } from './engines';
import { createEngines } from './docker';
import {
  createActingRule,
  createKasmReads,
  createKasmsRepository,
  createSessionLauncher,
  createSessionsService,
  createSessionWorker,
  createSocketHop,
  createStagedClaims,
  createStagedPools,
  KasmSchema,
  sessionsRoutes,
  type SessionWorker,
  toKasmResponse,
} from './sessions';
import {
  createInputRecorder,
  createRequestAdmission,
  createSessionAccess,
  createSessionSockets,
  createSessionsServer,
  originGuard,
  sessionProxy,
  SOCKET_RECHECK_MS,
} from './session-proxy';
import { createSessionFilesService, sessionFilesRoutes } from './session-files';
import {
  auditPlugin,
  auditRoutes,
  auditTargetKinds,
  createAuditLog,
  createAuditRepository,
  createAuditTrail,
} from './audit';
import { ADMIN_API_PREFIX, API_PREFIX, SECURITY_SCHEMES, undocumentedAlias } from './api';
import { authPlugin, authThrottleOptions } from './plugins';
import { ownRegistryRoutes } from './own-registry';
import {
  createRegistryService,
  createRegistryWorkspacesService,
  platformSeries,
  registryRoutes,
} from './registry';
import { createRepositories } from './repositories';
import { createSettingsRepository, createSettingsService } from './settings';
import { createLoginsRepository, createLoginsService, loginsRoutes } from './logins';
import {
  createTargetUserResolver,
  createUsersService,
  type UserSessionsListing,
  usersRoutes,
} from './users';
import {
  attributesRoutes,
  createAttributesRepository,
  createAttributesService,
} from './attributes';
import { createIconsRepository, createIconsService } from './icons';
import { webPlugin } from './web';
import { consoleOriginOf, createZonesService, zonesRoutes } from './zones';
import {
  createStagingRepository,
  createStagingRound,
  createStagingService,
  stagingRoutes,
} from './staging';

export interface AppOverrides extends ServiceAppOverrides {
  database?: Database;
  /** Replaces the API key cache that API_KEY_CACHE asks for; null for none. */
  apiKeyCache?: ApiKeyCache | null;
  /** The engine clients (tests share one across app instances). */
  engines?: Engines;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The session lifecycle's background work; tests run rounds of it directly. */
    sessionWorker: SessionWorker;
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
  // Before any route: which listener a request came through decides what may answer it.
  app.addHook('onRequest', originGuard(config.SESSION_PORT !== 0));
  const sessionsServer = createSessionsServer(app);
  app.decorate('sessionsServer', sessionsServer);
  app.addHook('onClose', async () => {
    sessionsServer.closeAllConnections();
    await new Promise<void>((done) => sessionsServer.close(() => done()));
  });
  const tracing = startTracing(config, app.log);

  const database = overrides.database ?? openDatabase(config);
  const data = createRepositories(database);
  const targetUsers = createTargetUserResolver(data.users);
  const apiKeys = createApiKeysService({
    keys: createApiKeysRepository(database),
    ...serverKeyCaching(app, config, database, overrides.apiKeyCache),
  });
  const groupImages = createGroupImagesService(data);
  const images = createImagesService({
    images: data.images,
    users: targetUsers,
    groups: data.groups,
  });
  const registries = createRegistryService({ registries: data.registries, config });
  const registryWorkspaces = createRegistryWorkspacesService({
    ...data,
    series: platformSeries(config.PLATFORM_VERSION),
  });
  const zones = createZonesService({ ...data, consoleOrigin: consoleOriginOf(config) });
  const fileMappings = createFileMappingsService({
    mappings: data.fileMappings,
    targets: mappingTargets(data),
  });
  const launchPlans = createLaunchPlanService({
    sources: data,
    agents: data.agents,
    users: targetUsers,
    urlScheme: config.SESSION_URL_SCHEME,
  });
  const policy = enginePolicy(config);
  if (policy.allowInsecureTcp) {
    app.log.warn(
      'ENGINE_ALLOW_INSECURE_TCP is on: tcp:// agents without TLS are accepted, and anyone on their network owns those engines and hosts. Lab use only.',
    );
  }
  const kasms = createKasmsRepository(database);
  const socketHop = createSocketHop(config.SESSION_SOCKETS_DIR);
  await socketHop.open();
  const sessionParts = {
    kasms,
    socketHop,
    reads: createKasmReads(kasms, data),
    agents: data.agents,
    engines: overrides.engines ?? createEngines({ policy, log: app.log, tracer: tracing.tracer }),
    owner: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`.slice(-64),
    leaseMs: config.SESSION_LEASE_SECONDS * 1000,
    log: app.log,
    tracer: tracing.tracer,
  };
  const agents = createAgentsService({
    agents: data.agents,
    engines: sessionParts.engines,
    policy,
    reservations: () => sessionParts.kasms.reservations(),
    hasSessions: (agentId) => sessionParts.kasms.hasLiveOn(agentId),
    zones: data.zones,
  });
  const settings = createSettingsService({
    settings: createSettingsRepository(database),
    enginePolicy: policy,
    consoleOrigin: consoleOriginOf(config),
  });
  const registry = createRegistry();
  const workspaceMetrics = createWorkspaceMetrics({
    registry,
    log: app.log,
    sessionCounts: () => sessionParts.kasms.countLiveByStatusAndWorkspace(),
    agents: () => agents.list(),
    // Read at each scrape, once the staging service below exists.
    stagingPools: () => staging.list(),
  });
  const launcher = createSessionLauncher({
    ...sessionParts,
    observer: workspaceMetrics.launches,
    launchTimeoutMs: config.SESSION_LAUNCH_TIMEOUT_SECONDS * 1000,
    keepaliveMs: config.SESSION_KEEPALIVE_SECONDS * 1000,
    profiles: {
      root: config.PROFILE_ROOT,
      user: { uid: config.PROFILE_UID, gid: config.PROFILE_GID },
    },
  });
  const access = createSessionAccess(kasms, sessionParts.reads, {
    grantTtlMs: config.SESSION_GRANT_TTL_SECONDS * 1000,
  });
  const sockets = createSessionSockets({
    intervalMs: SOCKET_RECHECK_MS,
    maxPerGrant: config.SESSION_GRANT_MAX_WEBSOCKETS,
    idleMs: config.SESSION_WEBSOCKET_IDLE_SECONDS * 1000,
  });
  const attributes = createAttributesService({
    rows: createAttributesRepository(database),
    users: targetUsers,
  });
  const launchSlots = {
    lockUser: (tx: Tx, userId: string) => data.users.lockForLaunch(tx, userId),
    sessionLimit: (tx: Tx, userId: string) => data.groups.sessionLimit(tx, userId),
  };
  const sessions = createSessionsService({
    ...sessionParts,
    ...launchSlots,
    config,
    userExists: (userId) => data.users.exists(userId),
    launchPlans,
    launcher,
    staged: createStagedClaims({ ...sessionParts, ...launchSlots, config, launchPlans }),
    defaultImageOf: attributes.defaultImageOf,
    mayActAs: createActingRule({
      findUser: (id) => data.users.findById(id),
      permissionsOf: (userId) => data.groups.permissionsOf(userId),
    }),
    endAccess: (kasmId) => {
      access.revoke(kasmId);
      sockets.closeSession(kasmId);
    },
  });
  const loginRows = createLoginsRepository(database);
  const users = createUsersService({
    users: data.users,
    config,
    sessions,
    logins: loginRows,
    memberships: data.groups,
    onRevoked: sessions.endAccessOf,
  });
  // get_user lists a user's live sessions through a port of users/, which never imports sessions/.
  const userSessions: UserSessionsListing<typeof KasmSchema> = {
    schema: KasmSchema,
    liveOf: async (userId) => (await sessions.liveOf(userId)).map(toKasmResponse),
  };
  const logins = createLoginsService({
    logins: loginRows,
    users,
    config,
    onRevoked: sessions.endAccessOf,
  });
  const memberships = createMembershipsService({ groups: data.groups, users });
  const groups = createGroupsService({ groups: data.groups, members: users.inGroup });
  const icons = createIconsService({
    icons: createIconsRepository(database),
    images: data.images,
    registries: data.registries,
    // Icons come from registries: the same outbound policy as the registries themselves.
    fetch: createOutboundFetch({
      policy: createOutboundPolicy({
        allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
        allowlist: config.OUTBOUND_ALLOWLIST,
      }),
      maxRedirects: config.OUTBOUND_MAX_REDIRECTS,
    }),
    timeoutMs: config.REGISTRY_FETCH_TIMEOUT_MS,
    log: app.log,
  });
  const stagedPools = createStagedPools({
    ...sessionParts,
    config,
    launchPlans,
    launcher,
    sessions,
  });
  const stagingConfigs = createStagingRepository(database);
  const staging = createStagingService({
    configs: stagingConfigs,
    images: data.images,
    zones: data.zones,
    pools: stagedPools,
  });
  const auditEvents = createAuditRepository(database);
  // Every write's trail; the admin console records its own calls through the same one.
  const audit = createAuditTrail({
    events: auditEvents,
    log: app.log,
    kinds: auditTargetKinds({
      users,
      attributes,
      groups,
      groupImages,
      images,
      agents,
      zones,
      fileMappings: data.fileMappings,
      registries,
      apiKeys,
      sessions,
      staging,
    }),
  });
  const sessionWorker = createSessionWorker({
    ...sessionParts,
    sessions,
    intervalMs: config.SESSION_SWEEP_INTERVAL_MS,
    rounds: backgroundRounds(registry)('session-worker'),
    steps: [
      ['icon fetch', () => icons.fillMissing()],
      ['grant sweep', async () => void (await sessionParts.kasms.sweepGrants())],
      [
        'staging',
        createStagingRound({ configs: stagingConfigs, pools: stagedPools, log: app.log }),
      ],
    ],
  });

  // Before every route: its spans wrap their handlers.
  await app.register(requestSpans, { tracing });
  await app.register(metrics, { registry, config });
  await app.register(serviceFoundation, {
    database: {
      ping: () => database.ping(),
      // A database handed in is its owner's to close.
      close: () => (overrides.database ? Promise.resolve() : database.close()),
    },
    docs: {
      title: 'workspace-api',
      description:
        'Control plane of the workspace platform; wire-compatible with the Kasm Workspaces developer API.',
      version: '0.1.0',
      securitySchemes: SECURITY_SCHEMES,
    },
  });
  const signedInUser = async (token: string) => (await logins.sessionUser(token))?.userId ?? null;
  await app.register(authThrottlePlugin, authThrottleOptions(config));
  await app.register(sessionProxy, {
    access,
    sockets,
    socketHop,
    onUpstream: workspaceMetrics.proxyUpstream,
    recordInput: createInputRecorder({
      write: (kasmId, at) => kasms.recordInput(kasmId, at),
      onError: (error, kasmId) =>
        app.log.warn({ err: error, kasmId }, 'session input not recorded'),
    }),
    signedInUser,
  });
  await app.register(sessionFilesRoutes, {
    files: createSessionFilesService({
      admit: createRequestAdmission(access, signedInUser),
      reads: sessionParts.reads,
      engines: sessionParts.engines,
      policyOf: (imageId) => data.images.transferPolicyOf(imageId),
      audit,
    }),
  });
  await app.register(webPlugin, {
    logins,
    sessions,
    images,
    icons,
    zones,
    sessionScheme: config.SESSION_URL_SCHEME,
    extend: (web) =>
      web.register(adminConsole, {
        permissionsOf: (userId) => data.groups.permissionsOf(userId),
        audit,
        sections: [
          usersSection({
            users,
            groups,
            memberships,
            sessions,
            logins,
            usernameDeleted: auditEvents.usernameDeleted,
          }),
          groupsSection({ groups, memberships, groupImages, images }),
          workspacesSection({ images, registries, registryWorkspaces, fileMappings }),
          infrastructureSection({ agents, zones }),
          sessionsSection({ sessions }),
          apiKeysSection({ apiKeys }),
          settingsCodeSection({ settings, audit }),
          auditSection({ auditLog: createAuditLog(auditEvents) }),
        ],
      }),
  });
  await app.register(ownRegistryRoutes, { series: platformSeries(config.PLATFORM_VERSION) });
  app.decorate('sessionWorker', sessionWorker);
  if (config.SESSION_WORKER === 'on') app.addHook('onReady', async () => sessionWorker.start());
  app.addHook('onClose', async () => {
    await sessionWorker.stop();
    await launcher.close();
  });

  const operations = async (api: FastifyInstance) => {
    await api.register(authPlugin, { apiKeys });
    await api.register(auditPlugin, { trail: audit });
    await api.register(auditRoutes, { auditLog: createAuditLog(auditEvents) });
    await api.register(usersRoutes, { users, sessions: userSessions });
    await api.register(attributesRoutes, { attributes });
    await api.register(loginsRoutes, { logins });
    await api.register(membershipsRoutes, { memberships });
    await api.register(groupsRoutes, { groups });
    await api.register(groupImagesRoutes, { groupImages });
    await api.register(imagesRoutes, { images });
    await api.register(registryRoutes, { registries, registryWorkspaces });
    await api.register(apiKeysRoutes, { apiKeys });
    await api.register(zonesRoutes, { zones });
    await api.register(stagingRoutes, { staging });
    await api.register(agentsRoutes, { agents });
    await api.register(profilePathRoutes, { images });
    const bodyLimit = Math.max(config.BODY_LIMIT_BYTES, FILE_MAPPING_BODY_LIMIT_BYTES);
    await api.register(fileMappingsRoutes, { fileMappings, bodyLimit });
    await api.register(launchPlanRoutes, { launchPlans });
    await api.register(sessionsRoutes, { sessions });
  };
  await app.register(operations, { prefix: API_PREFIX });
  await app.register(undocumentedAlias(operations), { prefix: ADMIN_API_PREFIX });

  return app;
}
