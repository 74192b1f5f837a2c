import { MAX_USER_AGENT_CHARS, storableText, type ErrorEvent } from '@tracker/core';

/**
 * SDKs whose events are sent by the browser the error happened in, so the request's
 * User-Agent header names that browser (the Next.js client SDK reports as `tracker.browser`
 * too). A server SDK's header names the server's HTTP client, which is not the user's browser.
 */
const BROWSER_SDK_NAMES: ReadonlySet<string> = new Set(['tracker.browser']);

/**
 * The event with `context.userAgent` taken from the request's User-Agent header, when it is a
 * browser SDK's event that did not send one itself (an older SDK, a hand-made client); else the
 * event itself. What the SDK sent wins: a proxy or a service worker in between may put its own
 * header on the request (docs/ingest.md, "Derived tags").
 */
export function withHeaderUserAgent<E extends ErrorEvent>(event: E, header: string | undefined): E {
  if (header === undefined || header === '' || header.length > MAX_USER_AGENT_CHARS) return event;
  if (event.sdk === undefined || !BROWSER_SDK_NAMES.has(event.sdk.name)) return event;
  if (typeof event.context?.userAgent === 'string') return event;
  return { ...event, context: { ...event.context, userAgent: storableText(header) } };
}
