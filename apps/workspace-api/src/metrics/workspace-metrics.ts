import type { FastifyBaseLogger } from 'fastify';
import { Counter, Histogram, scrapedGauges, type Registry } from '@platform/metrics';
import { toWireId } from '@platform/schemas';
import { agentCapacity, agentResources, type AgentWithZone } from '../agents';
import type { LaunchObserver } from '../sessions';

export interface WorkspaceMetricsSources {
  registry: Registry;
  log: FastifyBaseLogger;
  /** Live sessions by status and workspace, counted by the database at each scrape. */
  sessionCounts: () => Promise<{ status: string; workspace: string; count: number }[]>;
  /** Every agent with what its live sessions reserve. */
  agents: () => Promise<AgentWithZone[]>;
  /** Every staging config with how many of its sessions wait for a user and how many start. */
  stagingPools: () => Promise<StagingPoolCount[]>;
}

export interface StagingPoolCount {
  id: string;
  imageId: string;
  zoneId: string;
  numSessions: number;
  numStaged: number;
  numStarting: number;
}

/** workspace-api's own metrics (docs/metrics.md lists them); answers the launcher's observer. */
export function createWorkspaceMetrics(sources: WorkspaceMetricsSources): {
  launches: LaunchObserver;
  proxyUpstream: (kind: 'http' | 'websocket' | 'driver', hop: 'socket' | 'tls') => void;
} {
  const { registry } = sources;
  scrapedGauges({
    registry,
    log: sources.log,
    read: sources.sessionCounts,
    labelNames: ['status', 'workspace'],
    labels: (row) => ({ status: row.status, workspace: row.workspace }),
    gauges: [
      {
        name: 'workspace_sessions',
        help: 'Live sessions by status and workspace (image name)',
        value: (row) => row.count,
      },
    ],
  });
  const own = agentResources;
  const capacity = (agent: AgentWithZone) => agentCapacity(own(agent));
  scrapedGauges({
    registry,
    log: sources.log,
    read: sources.agents,
    labelNames: ['agent'],
    labels: (agent) => ({ agent: agent.hostname }),
    gauges: [
      {
        name: 'workspace_agent_up',
        help: 'Whether the agent answered its last heartbeat (1) or not (0)',
        value: (agent) => (agent.status === 'online' ? 1 : 0),
      },
      {
        name: 'workspace_agent_capacity_cores',
        help: 'Cores the agent offers (its override, else what it detected)',
        value: (agent) => capacity(agent).cores,
      },
      {
        name: 'workspace_agent_used_cores',
        help: 'Cores allocated outside the platform plus those live sessions reserve',
        value: (agent) => own(agent).allocatedCores + agent.reserved.cores,
      },
      {
        name: 'workspace_agent_capacity_memory_bytes',
        help: 'Memory the agent offers',
        value: (agent) => capacity(agent).memory,
      },
      {
        name: 'workspace_agent_used_memory_bytes',
        help: 'Memory allocated outside the platform plus what live sessions reserve',
        value: (agent) => own(agent).allocatedMemory + agent.reserved.memory,
      },
    ],
  });

  scrapedGauges({
    registry,
    log: sources.log,
    read: sources.stagingPools,
    labelNames: ['staging_config', 'image_id', 'zone_id'],
    labels: (pool) => ({
      staging_config: toWireId(pool.id),
      image_id: toWireId(pool.imageId),
      zone_id: toWireId(pool.zoneId),
    }),
    gauges: [
      {
        name: 'workspace_staging_desired_sessions',
        help: 'Sessions the staging config keeps warm (num_sessions)',
        value: (pool) => pool.numSessions,
      },
      {
        name: 'workspace_staging_ready_sessions',
        help: 'Staged sessions running and waiting for a user',
        value: (pool) => pool.numStaged,
      },
      {
        name: 'workspace_staging_starting_sessions',
        help: 'Staged sessions still starting',
        value: (pool) => pool.numStarting,
      },
    ],
  });

  const phases = new Histogram({
    name: 'workspace_session_launch_phase_seconds',
    help: 'How long each phase of a successful launch phase took: pull, create, start, ready',
    labelNames: ['phase'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const outcomes = new Counter({
    name: 'workspace_session_launches_total',
    help: 'Launches that ended, by outcome: running, error, superseded (destroyed or swept meanwhile)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const upstreams = new Counter({
    name: 'workspace_proxy_upstream_connections_total',
    help: "Connections the session proxy opened to containers, by kind (http, websocket; driver: the service's own to a display it drives) and hop: socket (the socket hop, plain, this machine only) or tls (the container's published port)",
    labelNames: ['kind', 'hop'],
    registers: [registry],
  });
  return {
    launches: {
      phase: (phase, seconds) => phases.observe({ phase }, seconds),
      outcome: (outcome) => outcomes.inc({ outcome }),
    },
    proxyUpstream: (kind, hop) => upstreams.inc({ kind, hop }),
  };
}
