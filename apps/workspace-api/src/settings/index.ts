// The settings feature's public face: what other features may use of it.
export { emitText, runSettingsCommand, runSettingsSchemaCommand } from './settings.cli';
export { createSettingsRepository } from './settings.repository';
export { createSettingsService, type SettingsService } from './settings.service';
export { auditedSettingsChanges } from './settings-audit';
