import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { pack } from 'tar-stream';
import { TEST_WEB_IMAGE, testDockerHost, testDockerOptions, waitFor } from '@platform/testing';
import { createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { createImage } from '../image-factories';
import type { Prisma } from '../../src/generated/prisma/client';

export const docker = new Docker(testDockerOptions());

/**
 * The test web image plus a server of the socket hop (`hopServer`, node source), declared by the
 * label the platform reads, tagged `image`: what a registry image that declares the hop ships.
 */
export async function buildHopImage(image: string, hopServer: string): Promise<void> {
  const base = await docker.createContainer({ Image: TEST_WEB_IMAGE });
  try {
    const archive = pack();
    archive.entry({ name: 'hop.js', mode: 0o644 }, hopServer);
    archive.finalize();
    await base.putArchive(archive as unknown as NodeJS.ReadableStream, { path: '/' });
    const [repo, tag] = image.split(':');
    await base.commit({
      repo,
      tag,
      changes: 'LABEL io.workspace-platform.socket-hop="exec node /hop.js"',
    });
  } finally {
    await base.remove({ force: true });
  }
}
export const SESSION_LABEL = 'io.workspace-platform.session-id';
/** Launches, stops and sweeps on a busy machine: generous, and every wait ends as soon as it can. */
export const LONG = 60_000;

export interface SessionWorld {
  h: Harness;
  zoneId: string;
  agentId: string;
  groupId: string;
  /** The test web workspace (plain HTTP on 8080), allowed to the group. */
  imageId: string;
  /** The profile root (PROFILE_ROOT) of the world's own harness. */
  profiles: string;
  member: (username?: string) => Promise<{ user_id: string; username: string }>;
  addImage: (overrides?: Partial<Prisma.ImageUncheckedCreateInput>) => Promise<string>;
  request: (body: Record<string, unknown>) => Promise<{ kasm_id: string; kasm_url: string }>;
  /** Waits for a session's status, up to `limitMs` (LONG unless said). */
  waitForStatus: (
    kasmId: string,
    status: string,
    limitMs?: number,
  ) => Promise<Record<string, unknown>>;
  containersOf: (kasmId: string) => Promise<Docker.ContainerInfo[]>;
}

/** A session world around one harness: an engine agent, a zone, a group and the web workspace. */
export async function createSessionWorld(
  env: Record<string, string> = {},
  harness?: Harness,
): Promise<SessionWorld> {
  const profiles = await mkdtemp(path.join(tmpdir(), 'profiles-'));
  const h =
    harness ??
    (await createHarness({
      SESSION_URL_SCHEME: 'http',
      SESSION_LEASE_SECONDS: '3',
      PROFILE_ROOT: profiles,
      ...env,
    }));
  const zone = await h.call('create_zone', {
    target_zone: { name: 'local', proxy_hostname: 'localhost', proxy_port: 0 },
  });
  const zoneId = zone.json().zone.zone_id;
  const agent = await h.call('create_agent', {
    // The test machine may have 2 cores: an override lets many small sessions run side by side.
    target_agent: {
      hostname: 'engine-1',
      zone_id: zoneId,
      docker_url: testDockerHost(),
      cores_override: 64,
    },
  });
  expect(agent.json().agent.status).toBe('online');
  const group = await createGroup(h, { name: `Launchers ${path.basename(profiles)}` });

  const world: SessionWorld = {
    h,
    zoneId,
    agentId: agent.json().agent.agent_id,
    groupId: group.group_id,
    imageId: '',
    profiles,
    member: (username) => createMember(h, group.group_id, username),
    async addImage(overrides = {}) {
      const name = overrides.name ?? TEST_WEB_IMAGE;
      const imageId = await createImage(h.db, {
        name,
        // One image installed several times, as from several registries: each its own name.
        settingsName: `${name} (${randomBytes(3).toString('hex')})`,
        cores: 0.5,
        memory: BigInt(256 * 1024 ** 2),
        runConfig: { port: 8080, scheme: 'http', home: '/home/kasm-user' },
        // The test image serves plain HTTP: an administrator's explicit exception.
        allowPlainHttp: true,
        persistentProfilePath: `${profiles}/{username}`,
        ...overrides,
      });
      const added = await h.call('add_images_group', {
        target_group: { group_id: group.group_id },
        target_image: { image_id: imageId },
      });
      expect(added.statusCode).toBe(200);
      return imageId;
    },
    async request(body) {
      const res = await h.call('request_kasm', { image_id: world.imageId, ...body });
      expect(res.statusCode).toBe(200);
      return res.json();
    },
    waitForStatus: (kasmId, status, limitMs = LONG) =>
      waitFor(async () => {
        const kasm = await h.db.kasm.findUniqueOrThrow({ where: { id: kasmId } });
        if (kasm.status !== status) {
          throw new Error(
            `session is ${kasm.status} (${kasm.statusMessage}), waiting for ${status}`,
          );
        }
        return kasm as unknown as Record<string, unknown>;
      }, limitMs),
    containersOf: (kasmId) =>
      docker.listContainers({
        all: true,
        filters: { label: [`${SESSION_LABEL}=${kasmId.replaceAll('-', '')}`] },
      }),
  };
  world.imageId = await world.addImage();
  return world;
}

/** Runs the session worker's rounds every 500 ms for `ms`: an idle limit's worth of chances to act. */
export async function sweepFor(world: SessionWorld, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await world.h.app.sessionWorker.round();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Removes what a world's sessions left on the engine, whatever the test did, and closes it. */
export async function closeWorld(world: SessionWorld | undefined): Promise<void> {
  if (!world) return;
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [SESSION_LABEL] },
  });
  const ids = new Set(
    (await world.h.db.kasm.findMany({ select: { id: true } })).map((k) => k.id.replaceAll('-', '')),
  );
  await Promise.all(
    containers
      .filter((c) => ids.has(c.Labels[SESSION_LABEL]))
      .map((c) =>
        docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
  );
  // Each session's own network, once its containers are gone: a run's networks share the pool.
  const networks = await docker.listNetworks({ filters: { label: [SESSION_LABEL] } });
  await Promise.all(
    networks
      .filter((n) => ids.has(n.Labels?.[SESSION_LABEL] ?? ''))
      .map((n) =>
        docker
          .getNetwork(n.Id)
          .remove()
          .catch(() => undefined),
      ),
  );
  await rm(world.profiles, { recursive: true, force: true });
  await world.h.close();
}

/**
 * Holds an agent's row in a transaction of the test's own, as a long placement onto it would,
 * until the returned function is called (and then waits for that transaction to end).
 */
export async function holdAgent(
  world: SessionWorld,
  agentId: string,
): Promise<() => Promise<void>> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked: () => void = () => undefined;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holder = world.h.db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(
        `SELECT id FROM workspace.agent WHERE id = $1::uuid FOR UPDATE`,
        agentId,
      );
      locked();
      await held;
    },
    { timeout: 4 * LONG, maxWait: LONG },
  );
  await lockTaken;
  return async () => {
    release();
    await holder;
  };
}
