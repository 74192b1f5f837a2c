import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { hashToken } from '../security';
import type { Clock } from '../time';
import { normalizeEmail } from '../accounts/normalize-email';
import { emailDomainOf } from './email-domains';
import { createProviderClient, findStoredProvider } from './provider-client';

/** How long the user has at their provider between "Sign in with SSO" and coming back. */
export const SSO_ATTEMPT_TTL_MS = 10 * 60 * 1000;

export interface StartedSsoLogin {
  /** Where to send the browser: the provider's authorization endpoint with state, nonce and PKCE. */
  authorizationUrl: string;
  /** The same `state`: the dashboard keeps it in a cookie and compares it on the way back. */
  state: string;
  organizationSlug: string;
}

export interface SsoRuntime {
  /** `<public URL>/sso/callback`: registered at the provider as the redirect URI. */
  redirectUri: string;
  allowPrivateTargets: boolean;
  clock: Clock;
}

/**
 * "Sign in with SSO": finds the organization by the email's domain and prepares one attempt
 * (the hash of `state`, with the nonce and the PKCE verifier, kept for SSO_ATTEMPT_TTL_MS).
 */
export async function startSsoLogin(ds: DataSource, email: string, runtime: SsoRuntime): Promise<StartedSsoLogin> {
  const address = normalizeEmail(email);
  const domain = emailDomainOf(address);
  if (!domain) throw new AppError('BAD_USER_INPUT', 'email: enter your work email address');
  const found = await queryRows<{ organization_id: string; slug: string }>(
    ds,
    `SELECT d.organization_id, o.slug FROM sso_domains d JOIN organizations o ON o.id = d.organization_id
      WHERE d.domain = $1`,
    [domain],
  );
  const org = found[0];
  if (!org) {
    throw new AppError('NOT_FOUND', `No organization signs in with single sign-on for ${domain}: use your password`);
  }
  const provider = await findStoredProvider(ds, org.organization_id);
  if (!provider) throw new AppError('NOT_FOUND', `No organization signs in with single sign-on for ${domain}`);
  const { oidc, config } = await createProviderClient(provider, runtime.allowPrivateTargets, runtime.clock);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const challenge = await oidc.calculatePKCECodeChallenge(verifier);
  const now = runtime.clock();
  // Attempts nobody came back from are removed here rather than by a job: one indexed delete.
  await queryRows(ds, 'DELETE FROM sso_login_attempts WHERE expires_at < $1', [new Date(now - 3600_000)]);
  await queryRows(
    ds,
    `INSERT INTO sso_login_attempts (state_hash, organization_id, nonce, code_verifier, redirect_uri, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [hashToken(state), org.organization_id, nonce, verifier, runtime.redirectUri, new Date(now + SSO_ATTEMPT_TTL_MS)],
  );
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: runtime.redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    login_hint: address,
  });
  return { authorizationUrl: url.href, state, organizationSlug: org.slug };
}
