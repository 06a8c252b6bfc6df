// The logins feature's public face: what other features may use of it.
export { LOGIN_LINK_PREFIX } from './login-link';
export { createLoginsRepository } from './logins.repository';
export { loginsRoutes } from './logins.routes';
export {
  createLoginsService,
  type Login,
  type LoginsService,
  type SignedIn,
} from './logins.service';
export { isRefusedLogin, passwordLogin } from './password-login';
