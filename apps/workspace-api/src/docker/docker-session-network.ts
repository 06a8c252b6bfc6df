import type Docker from 'dockerode';
import { EngineError, SESSION_LABEL } from '../engines';
import { describeDockerError, statusOf } from './docker-errors';
import type { InstallationSource } from '../installation';
import { ownedBy } from './docker-labels';

/** The session's own bridge network, named like its container. */
export const sessionNetworkName = (sessionId: string) => `session-${sessionId}`;

/**
 * Each session gets a bridge of its own: no other session shares its link, so no container can
 * answer ARP for another's address, and traffic between sessions must cross the agent's routing,
 * where Docker's isolation rules (or no forwarding at all) stop it. ICC is off as well, for an
 * engine whose operator attaches something else to it. A 409 is this session's network made by
 * an earlier attempt.
 */
export async function createSessionNetwork(
  docker: Docker,
  sessionId: string,
  labels: Record<string, string>,
): Promise<string> {
  const name = sessionNetworkName(sessionId);
  await docker
    .createNetwork({
      Name: name,
      Driver: 'bridge',
      CheckDuplicate: true,
      Labels: labels,
      Options: { 'com.docker.network.bridge.enable_icc': 'false' },
    })
    .catch((error: unknown) => {
      if (statusOf(error) === 409) return;
      throw new EngineError('ENGINE_NETWORK_REFUSED', describeDockerError(error));
    });
  return name;
}

/**
 * Removes the session's networks (after its containers); none, gone already (404) or still in
 * use by a launch under way elsewhere (409, left for the reconciler's next round) is fine.
 */
export async function removeSessionNetworks(docker: Docker, sessionId: string): Promise<void> {
  const networks = await docker
    .listNetworks({ filters: { label: [`${SESSION_LABEL}=${sessionId}`] } })
    .catch((error: unknown) => {
      throw new EngineError('ENGINE_LIST_REFUSED', describeDockerError(error));
    });
  for (const { Id } of networks) {
    await docker
      .getNetwork(Id)
      .remove()
      .catch((error: unknown) => {
        if ([404, 409].includes(statusOf(error) ?? 0)) return;
        throw new EngineError('ENGINE_REMOVE_REFUSED', describeDockerError(error));
      });
  }
}

/** This installation's sessions that have a network on the engine. */
export async function listSessionNetworks(
  docker: Docker,
  installation: InstallationSource,
): Promise<string[]> {
  const networks = await docker
    .listNetworks({ filters: { label: [SESSION_LABEL] } })
    .catch((error: unknown) => {
      throw new EngineError('ENGINE_LIST_REFUSED', describeDockerError(error));
    });
  const installationId = await installation.id();
  return networks
    .filter((n) => ownedBy(n.Labels, installationId))
    .map((n) => n.Labels?.[SESSION_LABEL] ?? '')
    .filter((id) => id !== '');
}
