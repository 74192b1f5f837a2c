import { PassThrough } from 'node:stream';
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceProvider } from './lib/nonce';
import { applyBaseSecurityHeaders, createContentSecurityPolicy, createNonce } from './lib/security-headers.server';

const ABORT_DELAY_MS = 5_000;

/**
 * Renders every document. A fresh nonce per response goes to the Content-Security-Policy header
 * and to each inline script Remix and React write (hydration data, scroll restoration, streamed
 * single-fetch chunks). A server that wants its own nonce may pass `cspNonce` in the load context.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce || createNonce();
  // Bots and crawlers get the whole document at once; browsers get the shell as soon as it is ready.
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      responseHeaders.set('Content-Security-Policy', createContentSecurityPolicy(nonce));
      applyBaseSecurityHeaders(responseHeaders);
      resolve(
        new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady: waitForAll ? undefined : ready,
        onAllReady: waitForAll ? ready : undefined,
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject and Remix logs them; later ones only we can report.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}

/** The `.data` requests of client-side navigation carry the same base headers as documents. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applyBaseSecurityHeaders(response.headers);
  return response;
};
