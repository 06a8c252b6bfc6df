// The installation's public face: its identity, which labels what it creates on shared engines.
export { createInstallationRepository, type InstallationSource } from './installation.repository';
