import { AppError } from '../errors';
import { checkProviderUrl, createProviderFetch, loadOpenIdClient, PROVIDER_TIMEOUT_MS } from './provider-fetch';

/** The part of a provider's discovery document Tracker keeps (as read when the owner saved it). */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  [key: string]: unknown;
}

const REQUIRED = ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;

/**
 * Reads `<issuer>/.well-known/openid-configuration` with openid-client (which checks that the
 * document names the same issuer) and refuses one that lacks what the code flow needs, names an
 * endpoint Tracker may not call, or says it cannot do the code flow or PKCE with S256.
 */
export async function discoverProvider(issuerUrl: string, allowPrivate: boolean): Promise<ProviderMetadata> {
  const url = checkProviderUrl(issuerUrl.trim(), allowPrivate, 'issuerUrl');
  const oidc = await loadOpenIdClient();
  let metadata: Record<string, unknown>;
  try {
    const config = await oidc.discovery(url, 'tracker-discovery', undefined, undefined, {
      execute: allowPrivate ? [oidc.allowInsecureRequests] : [],
      [oidc.customFetch]: createProviderFetch(allowPrivate),
      timeout: PROVIDER_TIMEOUT_MS / 1000,
    });
    metadata = { ...config.serverMetadata() };
  } catch (error) {
    throw (
      appErrorIn(error) ??
      new AppError('BAD_USER_INPUT', `issuerUrl: discovery at ${url.origin} failed: ${describe(error)}`)
    );
  }
  const missing = REQUIRED.filter((k) => typeof metadata[k] !== 'string' || metadata[k] === '');
  if (missing.length > 0) {
    throw new AppError('BAD_USER_INPUT', `issuerUrl: the discovery document has no ${missing.join(', ')}`);
  }
  for (const k of REQUIRED.slice(1))
    checkProviderUrl(metadata[k] as string, allowPrivate, `the discovery document's ${k}`);
  const types = metadata.response_types_supported;
  if (Array.isArray(types) && !types.includes('code')) {
    throw new AppError('BAD_USER_INPUT', 'issuerUrl: the provider does not offer the authorization code flow');
  }
  const pkce = metadata.code_challenge_methods_supported;
  if (Array.isArray(pkce) && !pkce.includes('S256')) {
    throw new AppError('BAD_USER_INPUT', 'issuerUrl: the provider does not offer PKCE with S256');
  }
  return metadata as ProviderMetadata;
}

/**
 * Our own error when it is in the chain: openid-client wraps what its fetch throws (our size and
 * address refusals) as "something went wrong" with the original as `cause`.
 */
export function appErrorIn(error: unknown): AppError | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof AppError) return e;
  }
  return null;
}

/** A library error as one line for the owner (never a stack): the most specific message in its chain. */
export function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const x = e as { message?: string; error_description?: string; error?: string };
    const text = x.error_description ?? x.message ?? (typeof x.error === 'string' ? x.error : '');
    if (text && text !== 'something went wrong') parts.push(text);
  }
  return (parts.join(': ') || String(error)).replace(/\s+/g, ' ').slice(0, 300);
}
