import { toTimestamp, toWireId } from '@platform/schemas';
import type { ImageRow } from './images.repository';
import type { ImageResponse } from './images.schemas';

const asObject = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export function toImageResponse(image: ImageRow): ImageResponse {
  return {
    image_id: toWireId(image.id),
    name: image.name,
    settings_name: image.settingsName,
    friendly_name: image.friendlyName,
    description: image.description,
    enabled: image.enabled,
    cores: image.cores,
    memory: Number(image.memory),
    gpu_count: image.gpuCount,
    cpu_allocation_method: image.cpuAllocationMethod,
    image_src: image.imageSrc,
    docker_registry: image.dockerRegistry,
    run_config: asObject(image.runConfig),
    exec_config: asObject(image.execConfig),
    volume_mappings: asObject(image.volumeMappings),
    allow_root_exec: image.allowRootExec,
    allow_plain_http: image.allowPlainHttp,
    architecture: image.architecture,
    categories: image.categories,
    uncompressed_size_mb: image.uncompressedSizeMb,
    persistent_profile_path: image.persistentProfilePath,
    idle_limit_seconds: image.idleLimitSeconds,
    idle_action: image.idleAction === 'destroy' ? 'destroy' : 'stop',
    allow_kasm_uploads: image.allowUploads,
    allow_kasm_downloads: image.allowDownloads,
    max_upload_bytes: image.maxUploadBytes === null ? null : Number(image.maxUploadBytes),
    allow_kasm_clipboard_up: image.allowClipboardUp,
    allow_kasm_clipboard_down: image.allowClipboardDown,
    allow_anonymous_join: image.allowAnonymousJoin,
    watch_notice: image.watchNotice,
    max_clipboard_bytes: image.maxClipboardBytes,
    allow_kasm_audio: image.allowAudio,
    record_sessions: image.recordSessions,
    record_keystrokes: image.recordKeystrokes,
    refuse_unrecorded: image.refuseUnrecorded,
    recording_retention_days: image.recordingRetentionDays,
    notes: image.notes,
    registry_id: image.registryId ? toWireId(image.registryId) : null,
    registry_entry: image.registryEntryName,
    created: toTimestamp(image.createdAt),
  };
}
