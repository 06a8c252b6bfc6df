// The attributes feature's public face: what other features may use of it.
export { createAttributesRepository } from './attributes.repository';
export { attributesRoutes } from './attributes.routes';
export { createAttributesService } from './attributes.service';
