// The zones feature's public face: what other features may use of it.
export { toZoneResponse } from './zone-response';
export { createZonesRepository, type ZonesRepository } from './zones.repository';
export { zonesRoutes } from './zones.routes';
export { HostnameSchema, ZONE_DEFAULTS, ZoneFields } from './zones.schemas';
export { createZonesService, type ZonesService } from './zones.service';
export { type ConsoleOrigin, consoleOriginOf, zoneOnConsoleOrigin } from './zone-origin';
