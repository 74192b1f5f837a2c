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
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_USER_INPUT', `issuerUrl: discovery at ${url.origin} failed: ${describe(error)}`);
  }
  const missing = REQUIRED.filter((k) => typeof metadata[k] !== 'string' || metadata[k] === '');
  if (missing.length > 0) {
    throw new AppError('BAD_USER_INPUT', `issuerUrl: the discovery document has no ${missing.join(', ')}`);
  }
  for (const k of REQUIRED.slice(1)) checkProviderUrl(metadata[k] as string, allowPrivate, `the discovery document's ${k}`);
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

/** A library error as one line for the owner (never a stack). */
export function describe(error: unknown): string {
  const e = error as { message?: string; error_description?: string; cause?: { message?: string } };
  const text = e.error_description ?? e.message ?? String(error);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
