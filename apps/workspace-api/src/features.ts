import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { backgroundRounds, createRegistry } from '@platform/metrics';
import { startTracing } from '@platform/tracing';
import { createAgentsService } from './agents';
import {
  type ApiKeyCache,
  createApiKeysRepository,
  createApiKeysService,
  serverKeyCaching,
} from './api-keys';
import { createAttributesRepository, createAttributesService } from './attributes';
import { createAuditFeature } from './audit';
import type { Config } from './config';
import { openDatabase, type Database } from './db';
import type { Engines } from './engines';
import { openEngines } from './docker';
import { setPasswordWorkerNice } from './domain';
import { createInstallationRepository } from './installation';
import { createFileMappingsService, mappingTargets } from './file-mappings';
import { createGroupImagesService, createGroupsService, createMembershipsService } from './groups';
import { createIconsFeature } from './icons';
import { createImagesService, effectivePolicy } from './images';
import { createLaunchPlanService } from './launch-plan';
import { createLoginsRepository, createLoginsService } from './logins';
import { createWorkspaceMetrics } from './metrics';
import { createRegistryService, createRegistryWorkspacesService, platformSeries } from './registry';
import { createRepositories } from './repositories';
import { createSessionAudioService } from './session-audio';
import { createSessionDriver } from './session-driver';
import { createSessionFilesService } from './session-files';
import { createSessionRecordingFeature } from './session-recording';
import { recordingStoreOptions } from './config-recording-store';
import { createSessionControls } from './session-page';
import { createSharesRepository, createSharingService } from './session-sharing';
import { createRunningSessions, createSessionProxyFeature } from './session-proxy';
import { createSessionsFeature, KasmSchema, toKasmResponse } from './sessions';
import { createSettingsRepository, createSettingsService } from './settings';
import {
  createSamlAssertionsRepository,
  createSsoConfigService,
  createSsoRepository,
  createSsoService,
  createSsoSignIn,
} from './sso';
import { createStagingRound, createStagingService } from './staging';
import { createTargetUserResolver, createUsersService, type UserSessionsListing } from './users';
import { consoleOriginOf, createZonesService } from './zones';

/** What tests may hand the features instead of building them (app.ts's overrides). */
export interface FeatureOverrides {
  database?: Database;
  /** Replaces the API key cache that API_KEY_CACHE asks for; null for none. */
  apiKeyCache?: ApiKeyCache | null;
  /** The engine clients (tests share one across app instances). */
  engines?: Engines;
}

/**
 * Every feature of the service, built in the order they depend on each other: each a closure
 * over plain objects, handed the others it needs (app.ts registers them).
 */
export async function buildFeatures(
  app: FastifyInstance,
  config: Config,
  overrides: FeatureOverrides,
) {
  const tracing = startTracing(config, app.log);
  const { log } = app;
  const { tracer } = tracing;

  // Data, and the features the others build on.
  const database = overrides.database ?? openDatabase(config);
  const data = createRepositories(database);
  const targetUsers = createTargetUserResolver(data.users);
  const apiKeys = createApiKeysService({
    keys: createApiKeysRepository(database),
    ...serverKeyCaching(app, config, database, overrides.apiKeyCache),
  });
  const groupImages = createGroupImagesService(data);
  const images = createImagesService({ ...data, users: targetUsers });
  const registries = createRegistryService({ ...data, config });
  const series = platformSeries(config.PLATFORM_VERSION);
  const registryWorkspaces = createRegistryWorkspacesService({ ...data, series });
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
  const attributes = createAttributesService({
    rows: createAttributesRepository(database),
    users: targetUsers,
  });
  const { policy, engines } = openEngines(config, {
    log,
    tracer,
    engines: overrides.engines,
    installation: createInstallationRepository(database),
  });
  const registry = createRegistry();
  const workspaceMetrics = createWorkspaceMetrics({
    registry,
    log,
    // Read at each scrape, once the features below exist.
    sessionCounts: () => live.kasms.countLiveByStatusAndWorkspace(),
    agents: () => agents.list(),
    stagingPools: () => staging.list(),
  });

  // Sessions: the launch (request_kasm), everything after it, the worker; then the proxy's parts.
  const live = await createSessionsFeature({
    config,
    database,
    engines,
    data,
    launchPlans,
    defaultImageOf: attributes.defaultImageOf,
    observer: workspaceMetrics.launches,
    log,
    tracer,
  });
  const { sessions, launchSession } = live;
  // Sharing: links the proxy spends for joiners, whose open streams the proxy holds.
  const sharing = createSharingService({
    config,
    shares: createSharesRepository(database),
    kasms: live.kasms,
    reads: live.reads,
    groups: data.groups,
    anonymousJoinOf: (imageId) => data.images.anonymousJoinOf(imageId),
    watchNoticeOf: (imageId) => data.images.watchNoticeOf(imageId),
    usernameOf: async (userId) => (await data.users.findById(userId))?.username ?? null,
    streams: {
      setRole: (grantId, role) => proxy.joinerStreams.setRole(grantId, role),
      close: (grantIds) => proxy.joinerStreams.close(grantIds),
    },
  });
  const proxy = createSessionProxyFeature({
    ...live,
    config,
    log,
    spendShare: (kasmId, token, joiner) => sharing.spend(kasmId, token, joiner),
  });
  const driver = createSessionDriver({
    displays: live.displays,
    onConnection: (hop) => workspaceMetrics.proxyUpstream('driver', hop),
    // A program's input is recorded as a viewer's is (docs/recording.md).
    record: async ({ kasmId, owner }) =>
      owner.userId ? recording.admitStream({ kasmId, ...owner, userId: owner.userId }) : null,
  });
  live.onAccessEnded(driver.end);
  const agents = createAgentsService({
    ...data,
    engines,
    policy,
    reservations: (tx) => live.kasms.reservations(tx),
    hasSessions: (agentId) => live.kasms.hasLiveOn(agentId),
  });
  const settings = createSettingsService({
    settings: createSettingsRepository(database),
    enginePolicy: policy,
    consoleOrigin: consoleOriginOf(config),
  });
  const onRevoked = sessions.endAccessOf;
  const loginRows = createLoginsRepository(database);
  // The process's one bcrypt thread hashes for users/ and checks for logins/.
  setPasswordWorkerNice(config.PASSWORD_WORKER_NICE);
  const users = createUsersService({
    users: data.users,
    config,
    sessions,
    logins: loginRows,
    memberships: data.groups,
    onRevoked,
  });
  // get_user lists a user's live sessions through a port of users/, which never imports sessions/.
  const userSessions: UserSessionsListing<typeof KasmSchema> = {
    schema: KasmSchema,
    liveOf: async (userId) => (await sessions.liveOf(userId)).map(toKasmResponse),
  };
  const memberships = createMembershipsService({ groups: data.groups, users });
  const groups = createGroupsService({ groups: data.groups, members: users.inGroup });
  const icons = createIconsFeature({ config, database, data, log });
  const pools = live.stagedPools;
  const staging = createStagingService({ ...data, configs: data.staging, pools });
  const ssoRows = createSsoRepository(database);
  const ssoConfig = createSsoConfigService({ sso: ssoRows, groups: data.groups });
  const audit = createAuditFeature({
    database,
    log,
    sources: {
      users,
      attributes,
      groups,
      groupImages,
      images,
      agents,
      zones,
      registries,
      fileMappings: data.fileMappings,
      apiKeys,
      sessions,
      staging,
      ssoProviders: ssoConfig,
    },
  });
  // Password sign-ins are refused (and audited) while SSO_REQUIRED, but for the break-glass names.
  const logins = createLoginsService({
    logins: loginRows,
    users,
    config,
    onRevoked,
    audit: audit.trail,
  });
  // Identity providers: sign-ins they vouch for make and update users, then start logins.
  const sso = createSsoService({
    sso: ssoRows,
    signIn: createSsoSignIn({
      sso: ssoRows,
      userRows: data.users,
      users,
      memberships: data.groups,
      logins,
      audit: audit.trail,
    }),
    logins,
    accounts: data.users,
    audit: audit.trail,
    samlAssertions: createSamlAssertionsRepository(database),
  });
  // The web page's sign-in, for the proxy's and the session files' admission.
  const signedInUser = async (token: string) => (await logins.sessionUser(token))?.userId ?? null;
  // A session user's transfers: the workspace's policy, less what any of their groups refuses.
  const sessionPolicy = async (imageId: string, userId: string) =>
    effectivePolicy(
      await data.images.transferPolicyOf(imageId),
      await data.groups.transferRightsOf(userId),
    );
  // Recording: the workspace's policy, or any of the user's groups requiring it (docs/recording.md).
  const recording = createSessionRecordingFeature({
    database,
    dir: path.resolve(config.RECORDINGS_DIR),
    store: recordingStoreOptions(config),
    key: config.RECORDING_SIGNING_KEY ? Buffer.from(config.RECORDING_SIGNING_KEY, 'utf8') : null,
    keyframeMs: config.RECORDING_KEYFRAME_SECONDS * 1000,
    scanMs: config.RECORDING_SCAN_MS,
    registry,
    audit: audit.trail,
    log,
    reach: (kasmId) => live.displays.reachAsService(kasmId),
    running: () => live.kasms.runningWithUser(),
    policyOf: async (imageId, userId) => {
      const [workspace, required] = await Promise.all([
        data.images.recordingPolicyOf(imageId),
        data.groups.recordingRequiredFor(userId),
      ]);
      return {
        record: (workspace?.recordSessions ?? false) || required,
        keystrokes: workspace?.recordKeystrokes ?? false,
        refuse: workspace?.refuseUnrecorded ?? false,
        retentionDays: workspace?.recordingRetentionDays ?? null,
        imageName: workspace?.friendlyName ?? '',
      };
    },
    usernameOf: async (userId) => (await data.users.findById(userId))?.username ?? '',
    closeViewers: (kasmId) => {
      proxy.closeViewers(kasmId);
      driver.end(kasmId);
    },
  });
  live.onAccessEnded(recording.end);
  const running = createRunningSessions({
    admit: proxy.admission(signedInUser),
    reads: live.reads,
    engines,
  });
  const sessionFiles = createSessionFilesService({
    running,
    policyOf: sessionPolicy,
    audit: audit.trail,
  });
  const sessionControls = createSessionControls({
    admit: proxy.admission(signedInUser),
    sessions,
    audit: audit.trail,
  });
  const sessionAudio = createSessionAudioService({
    running,
    audioAllowedOf: (imageId) => data.images.audioAllowedOf(imageId),
    holdSocket: proxy.socketHold(signedInUser),
  });
  const sessionWorker = live.worker(
    [
      ['icon fetch', () => icons.fillMissing()],
      ['staging', createStagingRound({ configs: data.staging, pools, log })],
    ],
    backgroundRounds(registry)('session-worker'),
  );

  return {
    tracing,
    registry,
    database,
    data,
    workspaceMetrics,
    live,
    proxy,
    driver,
    userSessions,
    signedInUser,
    sessionFiles,
    sessionPolicy,
    sessionControls,
    sharing,
    sessionAudio,
    sessionWorker,
    recording,
    recordings: recording.service,
    audit,
    apiKeys,
    users,
    attributes,
    logins,
    memberships,
    groups,
    groupImages,
    images,
    icons,
    registries,
    registryWorkspaces,
    series,
    zones,
    staging,
    ssoConfig,
    agents,
    fileMappings,
    launchPlans,
    settings,
    sessions,
    sessionsOverview: live.overview,
    launchSession,
    ssoRows,
    sso,
  };
}
