import { INSTALLATION_LABEL, SESSION_LABEL } from '../engines';
import type { InstallationSource } from '../installation';

/** The labels of everything made for a session: the session's, and this installation's. */
export const sessionLabels = async (sessionId: string, installation: InstallationSource) => ({
  [SESSION_LABEL]: sessionId,
  [INSTALLATION_LABEL]: await installation.id(),
});

/**
 * Whether a labelled container or network is this installation's. One with no installation label
 * was made before the label existed, when an engine served one installation: it is kept as ours,
 * so that an upgrade neither orphans its sessions nor takes their containers for vanished.
 */
export function ownedBy(labels: Record<string, string> | undefined, installationId: string) {
  const owner = labels?.[INSTALLATION_LABEL];
  return owner === undefined || owner === installationId;
}
