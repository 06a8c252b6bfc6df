import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '@platform/schemas';
import { API_KEY_SECURITY, EmptySchema, errorResponses, TargetUserBodySchema } from '../api';
import { AuthenticateBodySchema, LoginLinkSchema, LoginSchema } from './logins.schemas';
import { loginLinkPath } from './login-link';
import type { Login, LoginsService } from './logins.service';
import { passwordLogin } from './password-login';
import { publicProtocol } from '../domain';
import { toUserResponse } from '../users';

const tags = ['logins'];

/** A login as answered: the session token, shown this once, and its user. */
const toLoginResponse = (login: Login) => ({
  token: login.token,
  user: toUserResponse(login.user),
});

export const loginsRoutes: FastifyPluginAsyncTypebox<{ logins: LoginsService }> = async (
  app,
  { logins },
) => {
  app.post(
    '/authenticate',
    {
      schema: {
        tags,
        summary: 'User login (no API key): returns a session token',
        body: AuthenticateBodySchema,
        response: { 200: LoginSchema, ...problemResponses(400, 401, 403, 413, 415, 429, 503) },
      },
    },
    async (request) =>
      toLoginResponse(await passwordLogin(app, logins, request, request.body, 'api')),
  );

  app.post(
    '/logout_user',
    {
      config: { permission: 'users.auth_session', audit: 'user', auditInChange: true },
      schema: {
        tags,
        security: API_KEY_SECURITY,
        summary: 'End every login session of the user',
        body: TargetUserBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await logins.logoutUser(request.body.target_user, request.apiKey ?? undefined, request.audit);
      return {};
    },
  );

  app.post(
    '/get_login',
    {
      config: { permission: 'users.auth_session', audit: 'user', auditInChange: true },
      schema: {
        tags,
        security: API_KEY_SECURITY,
        summary: 'A one-time, short-lived link that signs the user in to the web page',
        body: TargetUserBodySchema,
        response: { 200: LoginLinkSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const token = await logins.createLink(
        request.body.target_user,
        request.apiKey ?? undefined,
        request.audit,
      );
      // The address the caller reached us at (X-Forwarded-* when TRUST_PROXY allows them).
      return { url: `${publicProtocol(request)}://${request.host}${loginLinkPath(token)}` };
    },
  );
};
