import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toWireId } from '@platform/schemas';
import { holds, type KeyGrant, type Permission } from '../api-keys';
import { type AuditContext, requestOrigin } from '../audit';
import { ForbiddenError } from '../errors';

/**
 * One section of the console: its routes live under `/admin/<id>`, and it is shown (and reached)
 * only by people holding `viewPermission`. Each route that changes something declares the
 * permission it needs as `config: { permission }`, as an API operation does; the shell checks it
 * and the form's CSRF token before the handler runs.
 */
export interface AdminSection {
  id: string;
  title: string;
  viewPermission: Permission;
  routes: FastifyPluginAsyncTypebox;
}

/** The signed-in person in the console: who, their CSRF token, and what their groups grant. */
export interface AdminPerson {
  userId: string;
  username: string;
  csrf: string;
  grant: KeyGrant;
  /** The sections this person may see, in the navigation's order. */
  sections: Pick<AdminSection, 'id' | 'title'>[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every console request past the shell's checks. */
    admin: AdminPerson | null;
  }
}

/** The console person of a request the shell has let through (its hooks ran first). */
export function personOf(request: FastifyRequest): AdminPerson {
  if (!request.admin) throw new ForbiddenError('Sign in first');
  return request.admin;
}

/** Refuses, as the API refuses a key, a person whose groups do not grant `permission`. */
export function requirePermission(person: Pick<AdminPerson, 'grant'>, permission: Permission) {
  if (!holds(person.grant, permission))
    throw new ForbiddenError(`Your groups do not grant the ${permission} permission`);
}

/** Whether the person may do what `permission` allows: forms for it are shown only then. */
export const may = (person: Pick<AdminPerson, 'grant'>, permission: Permission) =>
  holds(person.grant, permission);

/** A console request's actor: the signed-in person, once the console has let them in. */
export function consoleContext(request: FastifyRequest): AuditContext | null {
  const person = request.admin;
  if (!person) return null;
  return {
    actor: { kind: 'user', id: toWireId(person.userId), username: person.username },
    channel: 'console',
    ...requestOrigin(request),
  };
}
