import type { Principal } from '../accounts/authenticate';
import { ALL_SCOPES } from '../accounts/scopes';
import type { ApiScope } from '../entities';

/**
 * Who is asking: the person, and what their credential allows on top of their roles. Every
 * core function that reads or writes tenant data takes one, so the membership, role and scope
 * checks happen in one place (access/) rather than in each edge.
 */
export interface Caller {
  userId: string;
  /** A session has every scope; an API token the ones it was granted. */
  scopes: readonly ApiScope[];
  /** The API token behind the request (null or absent for a session): audit rows name it as the actor. */
  apiTokenId?: string | null;
  /** Where the request came from, for the audit log; absent for jobs, the CLI and tests. */
  origin?: RequestOrigin;
}

/** The client behind a request, as the audit log records it (never used for access decisions). */
export interface RequestOrigin {
  clientAddress: string | null;
  userAgent: string | null;
}

/** The caller behind an authenticated request. */
export function callerOf(
  principal: Pick<Principal, 'user' | 'scopes'> & { apiTokenId?: string | null },
  origin?: RequestOrigin,
): Caller {
  return { userId: principal.user.id, scopes: principal.scopes, apiTokenId: principal.apiTokenId ?? null, origin };
}

/** A signed-in person at the dashboard (every scope): for jobs and tests acting as a user. */
export function sessionCaller(userId: string): Caller {
  return { userId, scopes: ALL_SCOPES };
}
