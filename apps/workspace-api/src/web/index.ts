// The web feature's public face: what other features may use of it.
export { csrfInput, layout } from './layout';
export { signInPage } from './pages';
export { openingPage } from './session-pages';
export { sendPage } from './web-context';
export { assertCsrf, CSRF_FIELD, CSRF_HEADER, csrfTokenFor, formSecret } from './web-security';
export { webPlugin } from './web.plugin';
