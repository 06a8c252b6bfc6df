// The icons feature's public face: what other features may use of it.
export { createIconsRepository } from './icons.repository';
export { createIconsService, type IconsService } from './icons.service';
export { createIconsFeature } from './icons.module';
