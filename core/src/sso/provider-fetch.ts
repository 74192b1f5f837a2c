import { AppError } from '../errors';
import { checkTargetUrl } from '../security';

/** What Tracker reads from an identity provider at most: a discovery document, a key set, a token answer. */
export const MAX_PROVIDER_RESPONSE_BYTES = 64 * 1024;
export const PROVIDER_TIMEOUT_MS = 10_000;

type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });

let loaded: Promise<OpenIdClient> | undefined;

/**
 * openid-client 6 is an ES module; core is CommonJS, so it is loaded with a dynamic import
 * (which Node 20.19+ and tsx both keep as a real `import()`), once per process.
 */
export function loadOpenIdClient(): Promise<OpenIdClient> {
  loaded ??= import('openid-client');
  return loaded;
}

/**
 * Every URL Tracker calls on a provider's behalf (discovery, token endpoint, keys) is an outbound
 * target like an alert webhook: https only and a public address unless the operator allows
 * private targets (`TRACKER_ALLOW_PRIVATE_TARGETS=1`, which also admits plain http for a
 * provider on the local network or in tests).
 */
export function checkProviderUrl(input: string | URL, allowPrivate: boolean, what: string): URL {
  const checked = checkTargetUrl(input, allowPrivate);
  if ('problem' in checked) throw new AppError('BAD_USER_INPUT', `${what}: ${checked.problem.message}`);
  if (checked.url.protocol !== 'https:' && !allowPrivate) {
    throw new AppError(
      'BAD_USER_INPUT',
      `${what}: must be an https URL (plain http is allowed only when the operator sets TRACKER_ALLOW_PRIVATE_TARGETS=1)`,
    );
  }
  return checked.url;
}

/**
 * The fetch openid-client is given: refuses private or plain-http targets, gives up after
 * PROVIDER_TIMEOUT_MS, and stops reading an answer past MAX_PROVIDER_RESPONSE_BYTES, so a
 * hostile provider cannot make Tracker hold a megabyte-sized ID token (or an endless body).
 */
export function createProviderFetch(allowPrivate: boolean) {
  return async (url: string, options: RequestInit): Promise<Response> => {
    checkProviderUrl(url, allowPrivate, 'identity provider URL');
    const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(url, {
        ...options,
        redirect: 'manual',
        signal: options.signal ? AbortSignal.any([options.signal, signal]) : signal,
      });
    } catch (error) {
      throw new AppError(
        'UNAVAILABLE',
        `The identity provider did not answer (${new URL(url).origin}): ${(error as Error).message}`,
      );
    }
    const body = await readBounded(response, url);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

async function readBounded(response: Response, url: string): Promise<Uint8Array | null> {
  if (!response.body) return null;
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooLarge = () =>
    new AppError(
      'BAD_USER_INPUT',
      `The identity provider's answer from ${new URL(url).pathname} is larger than ${MAX_PROVIDER_RESPONSE_BYTES / 1024} KB: refused`,
    );
  if (declared > MAX_PROVIDER_RESPONSE_BYTES) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_PROVIDER_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
