import type { FastifyBaseLogger } from 'fastify';
import type { Tracer } from '@platform/tracing';
import type { AgentsRepository } from '../agents';
import type { KeyGrant } from '../api-keys';
import type { Config } from '../config';
import type { AuditRecorder, Tx } from '../db';
import type { RequestHost } from '../domain';
import type { LaunchPlanService } from '../launch-plan';
import type { KasmWithOwners } from './kasm-owners';
import type { KasmsRepository } from './kasms.repository';
import type { QueuePlace } from './launch-queue';
import type { LaunchWaitsRepository } from './launch-waits.repository';
import type { LaunchRequest } from './session-launcher';

/** What a launch needs of the users feature (and their attributes). */
export interface LaunchUsers {
  /**
   * Refuses a launch for a user the caller may not act as (the grantor must hold what the user
   * holds), or whose account is locked or disabled (acting-for-user.ts).
   */
  mayActAs(
    userId: string,
    grantor: KeyGrant | undefined,
    options: { launching: true },
  ): Promise<void>;
  /** The user's default workspace (the default_image attribute), for a request naming none. */
  defaultImageOf(userId: string): Promise<string | null>;
  /** Locks the user's row until `tx` ends; false when no user has the id. */
  lockForLaunch(tx: Tx, userId: string): Promise<boolean>;
}

/** What a launch needs of the groups feature: the allowances the user's groups set. */
export interface LaunchAllowances {
  /** max_kasms_per_user of the user's highest-priority group that sets it; null when none does. */
  sessionLimit(tx: Tx, userId: string): Promise<number | null>;
}

/** The launch-plan feature: what this user on this workspace gets, over the agents offered. */
export type LaunchPlanning = Pick<LaunchPlanService, 'planIn'>;

/** The agents (and their zones) a session may be placed on; placement locks one of them. */
export type LaunchAgents = Pick<AgentsRepository, 'list' | 'lockOne'>;

/** The sessions' own table: the reservation the launch records and what it counts. */
export type LaunchRecords = Pick<
  KasmsRepository,
  'transaction' | 'countLive' | 'reservations' | 'insert'
>;

/** Staging: a running staged session handed over at once, or null when none fits. */
export interface LaunchStaging {
  claim(
    input: { user_id: string; image_id: string; zone_id?: string | null },
    token: string,
    requestHost: RequestHost,
    /** The API's event, written in the hand-over's transaction; nothing when none is handed over. */
    audit?: AuditRecorder | null,
  ): Promise<KasmWithOwners | null>;
}

/** The launcher: carries the stored plan out on the agent's engine, in the background. */
export interface LaunchStarter {
  launch(row: KasmWithOwners, request: LaunchRequest): void;
}

/** Launches take turns at their database work (launch-queue.ts). */
export interface LaunchTurns {
  enter(): QueuePlace;
}

/** Launches answered before their turn: their waits, which get_kasm_status reads. */
export type LaunchWaits = Pick<LaunchWaitsRepository, 'record' | 'take' | 'fail'>;

/** Everything a launch (launch-session.ts) talks to, each behind its own port. */
export interface LaunchPorts {
  config: Pick<
    Config,
    | 'SESSION_LEASE_SECONDS'
    | 'SESSION_LAUNCH_TIMEOUT_SECONDS'
    | 'SESSION_KEEPALIVE_SECONDS'
    | 'SESSION_TIME_LIMIT_SECONDS'
    | 'LAUNCH_QUEUE_ANSWER_MS'
    | 'LAUNCH_QUEUE_WAIT_SECONDS'
  >;
  users: LaunchUsers;
  allowances: LaunchAllowances;
  plans: LaunchPlanning;
  agents: LaunchAgents;
  records: LaunchRecords;
  /** Without it every request launches a new session. */
  staging?: LaunchStaging;
  launcher: LaunchStarter;
  turns: LaunchTurns;
  waits: LaunchWaits;
  /** The user's name, for the answer of a launch waiting its turn. */
  usernameOf(userId: string): Promise<string>;
  /** Where a queued launch that fails without one of our errors is told. */
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Names this process in the new session's lease. */
  owner: string;
  /** Traces the reservation (the launcher traces the rest). */
  tracer: Tracer;
}
