import type { PolicyLimit, PolicySwitch, PolicyValues } from '../domain';
import type { ImageRow } from './images.repository';
import {
  MaxClipboardSchema,
  MaxUploadSchema,
  RetentionDaysSchema,
  UpdateImageBodySchema,
  type UpdateImageInput,
} from './images.schemas';

/**
 * A workspace's session policy (docs/sessions.md, "Files in and out" and "Clipboard"), field by
 * field. The settings file (its schema, apply, export) and the console's workspace form are
 * built from these tables: a new switch is one line here (one row per field, hence no Prettier).
 */
// prettier-ignore
export const WORKSPACE_POLICY_SWITCHES = [
  { field: 'allow_kasm_uploads', column: 'allowUploads', default: true, label: 'Uploads into ~/Uploads' },
  { field: 'allow_kasm_downloads', column: 'allowDownloads', default: true, label: 'Downloads from ~/Downloads' },
  { field: 'allow_kasm_clipboard_up', column: 'allowClipboardUp', default: true, label: 'Clipboard into the desktop' },
  { field: 'allow_kasm_clipboard_down', column: 'allowClipboardDown', default: true, label: 'Clipboard out of the desktop' },
  { field: 'allow_kasm_audio', column: 'allowAudio', default: true, label: 'Sound in the browser' },
  { field: 'allow_anonymous_join', column: 'allowAnonymousJoin', default: false, label: 'Joiners who are not signed in' },
  { field: 'record_sessions', column: 'recordSessions', default: false, label: 'Record sessions' },
  { field: 'record_keystrokes', column: 'recordKeystrokes', default: false, label: 'Key events in recordings' },
  { field: 'refuse_unrecorded', column: 'refuseUnrecorded', default: false, label: 'Refuse a session that cannot be recorded' },
  { field: 'watch_notice', column: 'watchNotice', default: true, label: 'Tell the owner while an administrator watches' },
] as const satisfies readonly PolicySwitch<UpdateImageInput, ImageRow>[];

const bounds = (schema: { minimum?: number; maximum?: number }) => ({
  minimum: schema.minimum ?? 1,
  maximum: schema.maximum ?? Number.MAX_SAFE_INTEGER,
});
export const WORKSPACE_POLICY_LIMITS = [
  {
    field: 'max_upload_bytes',
    column: 'maxUploadBytes',
    label: 'Largest upload (bytes)',
    ...bounds(MaxUploadSchema),
  },
  {
    field: 'max_clipboard_bytes',
    column: 'maxClipboardBytes',
    label: 'Largest clipboard text (bytes)',
    ...bounds(MaxClipboardSchema),
  },
  {
    field: 'recording_retention_days',
    column: 'recordingRetentionDays',
    label: 'Recordings kept (days)',
    ...bounds(RetentionDaysSchema),
  },
] as const satisfies readonly PolicyLimit<UpdateImageInput, ImageRow>[];

export const WORKSPACE_POLICY_FIELDS = [...WORKSPACE_POLICY_SWITCHES, ...WORKSPACE_POLICY_LIMITS];

/** A workspace's policy by column: limits as numbers, null for none. */
export type WorkspacePolicy = PolicyValues<
  typeof WORKSPACE_POLICY_SWITCHES,
  typeof WORKSPACE_POLICY_LIMITS
>;

const updatable = UpdateImageBodySchema.properties.target_image.properties;
/** The fields' rules as update_image takes them (each optional), by field name. */
export const workspacePolicySchemas = () =>
  Object.fromEntries(WORKSPACE_POLICY_FIELDS.map(({ field }) => [field, updatable[field]]));
