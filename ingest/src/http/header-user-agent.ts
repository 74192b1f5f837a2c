import { MAX_USER_AGENT_CHARS, storableText, type ErrorEvent } from '@tracker/core';

/**
 * SDKs whose events are sent by the browser the error happened in, so the request's
 * User-Agent header names that browser (the Next.js client SDK reports as `tracker.browser`
 * too; Sentry's browser-only SDKs by their names). A server SDK's header names the server's HTTP
 * client, which is not the user's browser; nor do Sentry's SDKs that run on both sides
 * (`sentry.javascript.nextjs`, `.sveltekit`, …), whose name does not say which side sent.
 */
const BROWSER_SDK_NAMES: ReadonlySet<string> = new Set([
  'tracker.browser',
  'sentry.javascript.browser',
  'sentry.javascript.react',
  'sentry.javascript.vue',
  'sentry.javascript.angular',
  'sentry.javascript.svelte',
  'sentry.javascript.ember',
  'sentry.javascript.solid',
  'sentry.javascript.gatsby',
]);

/**
 * The event with `context.userAgent` taken from the request's User-Agent header, when it is a
 * browser SDK's event that did not send one itself (in `context.userAgent` or its request headers) (an older SDK, a hand-made client); else the
 * event itself. What the SDK sent wins: a proxy or a service worker in between may put its own
 * header on the request (docs/ingest.md, "Derived tags").
 */
export function withHeaderUserAgent<E extends ErrorEvent>(event: E, header: string | undefined): E {
  if (header === undefined || header === '' || header.length > MAX_USER_AGENT_CHARS) return event;
  if (event.sdk === undefined || !BROWSER_SDK_NAMES.has(event.sdk.name)) return event;
  if (typeof event.context?.userAgent === 'string') return event;
  // Sentry's browser SDKs send the browser's own in the request headers: it wins, as above.
  const headers = event.request?.headers;
  if (headers && Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')) return event;
  return { ...event, context: { ...event.context, userAgent: storableText(header) } };
}
