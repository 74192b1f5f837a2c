import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Organization, User } from '../entities';
import { AppError } from '../errors';
import { hashToken } from '../security';
import { createSession, type CreatedSession } from '../accounts/create-session';
import type { RequestOrigin } from '../access/caller';
import { recordAudit } from '../audit/record-audit';
import { appErrorIn, describe } from './discover-provider';
import { emailDomainOf } from './email-domains';
import { linkSsoUser } from './link-sso-user';
import { createProviderClient, findStoredProvider } from './provider-client';
import type { SsoRuntime } from './start-sso-login';

/** Longest callback query Tracker reads (a code, a state, an issuer, maybe an error description). */
export const MAX_CALLBACK_PARAMETERS_LENGTH = 8 * 1024;

interface AttemptRow {
  organization_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface SsoLogInResult extends CreatedSession {
  user: User;
  organization: Organization;
  /** True when this sign-in created the user's membership (just in time). */
  joined: boolean;
}

const refused = (message: string) => new AppError('UNAUTHENTICATED', message);

/**
 * The provider sent the browser back with `parameters` (the callback's query string): the
 * attempt is claimed once by its `state`, the code is exchanged with the PKCE verifier, and
 * openid-client checks the ID token (signature, issuer, audience, expiry, nonce). Then Tracker
 * requires a verified email of an allowed domain, links the user by the issuer's `sub`, and
 * opens a session.
 */
export async function completeSsoLogin(
  ds: DataSource,
  parameters: string,
  runtime: SsoRuntime,
  origin?: RequestOrigin,
): Promise<SsoLogInResult> {
  if (parameters.length > MAX_CALLBACK_PARAMETERS_LENGTH)
    throw new AppError('BAD_USER_INPUT', 'The sign-in answer is too long');
  const params = new URLSearchParams(parameters.replace(/^\?/, ''));
  const state = params.get('state');
  if (!state) throw refused('The sign-in answer has no state: start again from the sign-in page');
  const now = new Date(runtime.clock());
  // Claimed before anything else: a replayed answer (the same state twice) finds it used.
  const claimed = await queryRows<AttemptRow>(
    ds,
    `UPDATE sso_login_attempts SET used_at = $2
      WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $2
      RETURNING organization_id, nonce, code_verifier, redirect_uri, expires_at, used_at`,
    [hashToken(state), now],
  );
  const attempt = claimed[0];
  if (!attempt) {
    const known = await queryRows<AttemptRow>(ds, 'SELECT used_at FROM sso_login_attempts WHERE state_hash = $1', [
      hashToken(state),
    ]);
    if (!known[0]) throw refused('Unknown sign-in state: start again from the sign-in page');
    if (known[0].used_at) throw refused('This sign-in answer was already used: start again from the sign-in page');
    throw refused('This sign-in took too long: start again from the sign-in page');
  }
  const provider = await findStoredProvider(ds, attempt.organization_id);
  if (!provider) throw refused('Single sign-on was turned off for this organization meanwhile');
  const { oidc, config } = await createProviderClient(provider, runtime.allowPrivateTargets, runtime.clock);
  const current = new URL(attempt.redirect_uri);
  current.search = params.toString();
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: attempt.code_verifier,
      expectedState: state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
  } catch (error) {
    throw appErrorIn(error) ?? refused(`The identity provider's answer was refused: ${describe(error)}`);
  }
  const subject = claims.sub;
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (typeof subject !== 'string' || subject === '') throw refused('The ID token has no subject');
  if (!email) throw refused('The identity provider sent no email address: ask it to release the email scope');
  if (claims.email_verified !== true) {
    throw refused(`Your identity provider has not verified ${email}: verify it there, then sign in again`);
  }
  const domain = emailDomainOf(email);
  const allowed = await queryRows<{ domain: string }>(
    ds,
    'SELECT domain FROM sso_domains WHERE domain = $1 AND organization_id = $2',
    [domain, provider.organizationId],
  );
  if (!allowed[0]) {
    throw refused(`${email} is not in a domain this organization signs in with: ask its owner to add ${domain}`);
  }
  return ds.transaction(async (em) => {
    const { user, joined } = await linkSsoUser(em, provider, subject, email);
    const organization = await em.findOneByOrFail(Organization, { id: provider.organizationId });
    const session = await createSession(em, user.id);
    // Audited in the same transaction (decision 061): the sign-in, and the membership it created.
    const source = {
      actor: { type: 'user' as const, userId: user.id },
      clientAddress: origin?.clientAddress ?? null,
      userAgent: origin?.userAgent ?? null,
    };
    if (joined) {
      await recordAudit(em, {
        organizationId: organization.id,
        ...source,
        action: 'member.joined',
        target: { type: 'member', id: user.id, label: user.email },
        changes: { after: { via: 'sso', role: provider.defaultRole } },
      });
    }
    await recordAudit(em, {
      organizationId: organization.id,
      ...source,
      action: 'auth.sso_signed_in',
      target: { type: 'user', id: user.id, label: user.email },
      changes: { after: { method: 'sso', issuer: provider.issuer } },
    });
    return { user, organization, joined, ...session };
  });
}
