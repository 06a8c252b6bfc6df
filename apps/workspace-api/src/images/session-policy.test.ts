import { effectivePolicy, NO_TRANSFERS, type SessionPolicy } from './session-policy';

const workspace: SessionPolicy = {
  allowUploads: true,
  allowDownloads: false,
  maxUploadBytes: 10,
  allowClipboardUp: true,
  allowClipboardDown: true,
  maxClipboardBytes: 5,
};
const group = (over: Partial<Record<string, boolean>> = {}) => ({
  allowUploads: true,
  allowDownloads: true,
  allowClipboardUp: true,
  allowClipboardDown: true,
  ...over,
});

describe('a session user’s effective policy', () => {
  it('is the workspace’s when no group refuses anything', () => {
    expect(effectivePolicy(workspace, [group(), group()])).toEqual(workspace);
    expect(effectivePolicy(workspace, [])).toEqual(workspace);
  });

  it('loses each right one group refuses, keeping the limits', () => {
    expect(
      effectivePolicy(workspace, [
        group({ allowClipboardDown: false }),
        group({ allowUploads: false }),
      ]),
    ).toEqual({ ...workspace, allowClipboardDown: false, allowUploads: false });
  });

  it('never gains a right the workspace refuses', () => {
    expect(effectivePolicy(workspace, [group({ allowDownloads: true })]).allowDownloads).toBe(
      false,
    );
  });

  it('allows nothing for a workspace that is gone', () => {
    expect(effectivePolicy(null, [group()])).toEqual(NO_TRANSFERS);
  });
});
