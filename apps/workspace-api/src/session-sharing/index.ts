// Sharing a session: share links, Kasm's join_kasm, joiners and their roles (docs/sharing.md).
// The proxy spends links and referees joiners' streams (session-proxy/); this feature owns the
// links and what the owner and the API do with them.
export { createSharesRepository, type SharesRepository } from './shares.repository';
export { createSharingService, type SharingService } from './sharing.service';
export { sharingRoutes } from './sharing.routes';
export { sharingPanelRoutes } from './sharing-panel.routes';
