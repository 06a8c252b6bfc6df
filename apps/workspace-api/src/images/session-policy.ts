/**
 * What a session's user may move in and out of its desktop: files (uploads, downloads, the
 * largest upload) and clipboard text (up: browser to desktop, down: desktop to browser, the
 * largest text). The workspace sets it; each of the user's groups may refuse any transfer
 * further, never allow one the workspace refuses.
 */
export interface SessionPolicy {
  allowUploads: boolean;
  allowDownloads: boolean;
  /** Null: no limit. */
  maxUploadBytes: number | null;
  allowClipboardUp: boolean;
  allowClipboardDown: boolean;
  /** Null: no limit. */
  maxClipboardBytes: number | null;
}

/** What a group says of its members' transfers: false refuses, true leaves it to the others. */
export interface GroupTransferRights {
  allowUploads: boolean;
  allowDownloads: boolean;
  allowClipboardUp: boolean;
  allowClipboardDown: boolean;
}

/** Nothing allowed: a session whose workspace is gone. */
export const NO_TRANSFERS: SessionPolicy = {
  allowUploads: false,
  allowDownloads: false,
  maxUploadBytes: 0,
  allowClipboardUp: false,
  allowClipboardDown: false,
  maxClipboardBytes: 0,
};

const RIGHTS = [
  'allowUploads',
  'allowDownloads',
  'allowClipboardUp',
  'allowClipboardDown',
] as const;

/** A user's right is the workspace's AND none of their groups refusing it. */
export function effectivePolicy(
  workspace: SessionPolicy | null,
  groups: readonly GroupTransferRights[],
): SessionPolicy {
  if (!workspace) return NO_TRANSFERS;
  const policy = { ...workspace };
  for (const right of RIGHTS) policy[right] = workspace[right] && groups.every((g) => g[right]);
  return policy;
}
