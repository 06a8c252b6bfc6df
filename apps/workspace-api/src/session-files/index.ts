// Files in and out of a session's desktop, on the sessions origin: resumable uploads into
// ~/Uploads and downloads from ~/Downloads, through the engine that runs the session (no server
// in the image), under the workspace's policy, audited. The files panel (assets/) uses it.
export { FILES_PREFIX, sessionFilesRoutes } from './session-files.routes';
export { createSessionFilesService, type SessionFilesService } from './session-files.service';
export { FILES_PANEL_ASSET } from './files-panel-asset';
