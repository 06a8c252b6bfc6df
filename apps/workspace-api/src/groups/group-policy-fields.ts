import type { PolicySwitch, PolicyValues } from '../domain';
import type { GroupRow } from './groups.repository';
import { UpdateGroupBodySchema, type UpdateGroupInput } from './groups.schemas';

/**
 * A group's transfer refusals (docs/sessions.md, "Files in and out" and "Clipboard"): false
 * refuses its members what a workspace allows, true leaves it to the workspace. The settings
 * file and the console's group form are built from this table (one row per field, hence no
 * Prettier).
 */
// prettier-ignore
export const GROUP_POLICY_SWITCHES = [
  { field: 'allow_kasm_uploads', column: 'allowUploads', default: true, label: 'Uploads into ~/Uploads' },
  { field: 'allow_kasm_downloads', column: 'allowDownloads', default: true, label: 'Downloads from ~/Downloads' },
  { field: 'allow_kasm_clipboard_up', column: 'allowClipboardUp', default: true, label: 'Clipboard into the desktop' },
  { field: 'allow_kasm_clipboard_down', column: 'allowClipboardDown', default: true, label: 'Clipboard out of the desktop' },
] as const satisfies readonly PolicySwitch<UpdateGroupInput, GroupRow>[];

/** A group's refusals by column. */
export type GroupPolicy = PolicyValues<typeof GROUP_POLICY_SWITCHES>;

const updatable = UpdateGroupBodySchema.properties.target_group.properties;
/** The fields' rules as update_group takes them (each optional), by field name. */
export const groupPolicySchemas = () =>
  Object.fromEntries(GROUP_POLICY_SWITCHES.map(({ field }) => [field, updatable[field]]));
