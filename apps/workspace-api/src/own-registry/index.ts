// The own-registry feature's public face: what other features may use of it.
export { ownRegistryRoutes } from './own-registry.routes';
