import type { TargetedMapping } from '../file-mappings';
import type { GroupPolicy } from '../groups';
import type { WorkspacePolicy } from '../images';
import type { SsoProviderRow } from '../sso';

/** The database's side of the comparison, read inside the apply's transaction. Memory in bytes. */
export interface CurrentSettings {
  zones: {
    id: string;
    name: string;
    proxyHostname: string;
    proxyPath: string;
    proxyPort: number;
  }[];
  agents: {
    id: string;
    hostname: string;
    zoneId: string;
    dockerUrl: string;
    tlsCaPath: string;
    tlsCertPath: string;
    tlsKeyPath: string;
    cores: number;
    memory: number;
    coresOverride: number;
    memoryOverride: number;
  }[];
  /** `name` is the workspace's settings name (unique), not its image name. */
  images: ({
    id: string;
    name: string;
    persistentProfilePath: string;
    idleLimitSeconds: number | null;
    idleAction: string;
  } & WorkspacePolicy)[];
  groups: ({ id: string; name: string; permissions: string[] } & GroupPolicy)[];
  /** The users the file names and the users that have file mappings; not every user. */
  users: { id: string; username: string }[];
  mappings: TargetedMapping[];
  stagingConfigs: {
    id: string;
    imageId: string;
    zoneId: string;
    numSessions: number;
    expirationHours: number;
  }[];
  ssoProviders: SsoProviderRow[];
}
