// The launch-plan feature's public face: what other features may use of it.
export { type LaunchPlan, sessionUrlFor } from './launch-plan';
export { launchPlanRoutes } from './launch-plan.routes';
export { createLaunchPlanService, type LaunchPlanService } from './launch-plan.service';
export { sessionUrl, type ZoneProxy } from './session-url';
