// Driving a running session by program (send_kasm_input, get_kasm_frame): a VNC client of the
// service's own on the session's stream, reached as the proxy reaches it. It stands on sessions/.
export { inputSummary } from './input-actions';
export { sessionDriverRoutes } from './session-driver.routes';
export { createSessionDriver, type SessionDriver } from './session-driver.service';
export { type Framebuffer, type RfbClient, startRfbClient } from './rfb-client';
