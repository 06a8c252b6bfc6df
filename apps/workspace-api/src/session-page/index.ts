// The session page: what a browser sees at `/kasm/<kasm_id>/` on the sessions origin (the
// desktop in the platform's own noVNC client, and a panel beside it: clipboard, files, keys,
// display, sleep, end, time left), its files, and the session's own endpoints it calls. It
// stands on session-proxy (admission, the landing hook) and sessions (stop, destroy).
export { createSessionControls, type SessionControls } from './session-controls.service';
export { sendSessionPage, PAGE_ASSETS } from './session-page.html';
export { sessionPageAssets } from './session-page-assets';
export { novncModule, sessionPageRoutes } from './session-page.routes';
