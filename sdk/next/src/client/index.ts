import * as Browser from '@tracker/browser';
import type { BrowserOptions } from '@tracker/browser';

export {
  captureException,
  captureFeedback,
  captureMessage,
  close,
  flush,
  getDroppedCounts,
  getStats,
  lastEventId,
  logger,
} from '@tracker/browser';
export type {
  CaptureOptions,
  DroppedCounts,
  DropReason,
  FeedbackInput,
  Level,
  Logger,
  LogLevel,
  Stats,
  Tags,
  User,
} from '@tracker/browser';
export { SDK_VERSION } from '../version';

/** `init`'s options: those of `@tracker/browser`, every one optional (the DSN too). */
export type NextClientOptions = BrowserOptions;

function value(text: string | undefined): string | undefined {
  const trimmed = typeof text == 'string' ? text.trim() : '';
  return trimmed ? trimmed : undefined;
}

// Written out as `process.env.NEXT_PUBLIC_…` so Next's bundler inlines the values at build time;
// a bundler that does not leaves `process` undefined in the browser, hence the try.
function publicEnv(): { dsn?: string; release?: string } {
  try {
    return { dsn: process.env.NEXT_PUBLIC_TRACKER_DSN, release: process.env.NEXT_PUBLIC_TRACKER_RELEASE };
  } catch {
    return {};
  }
}

/**
 * Starts the browser SDK. Call it from `instrumentation-client.ts` (Next 15.3 or later), which
 * runs before hydration, so errors of the first render are caught too. The DSN defaults to
 * `NEXT_PUBLIC_TRACKER_DSN` and the release to `NEXT_PUBLIC_TRACKER_RELEASE`, the variable the
 * source-map uploader also reads, so events and maps name the same release. Without a DSN it
 * is a silent no-op; on the server (a client component's server render) it does nothing.
 */
export function init(options: NextClientOptions = {}): void {
  try {
    if (typeof (globalThis as { window?: unknown }).window == 'undefined') return;
    const env = publicEnv();
    Browser.init({
      ...options,
      dsn: value(options.dsn) ?? value(env.dsn),
      release: value(options.release) ?? value(env.release),
    });
  } catch {
    // never into the host app
  }
}

/**
 * For Next before 15.3 (no `instrumentation-client.ts`): render `<TrackerInit />` once in the
 * root layout. It calls `init` while rendering, during hydration, before any effect runs, and
 * renders nothing. Props are `init`'s options; they cross from the server layout, so pass
 * plain values only. A re-render with the same props changes nothing.
 */
export function TrackerInit(props: NextClientOptions): null {
  let key: string | undefined;
  try {
    key = JSON.stringify(props);
  } catch {
    // unserializable props: initialise every time
  }
  // A re-render with the same props (React renders the layout again) must not reset the SDK.
  if (key === undefined || key !== lastProps) init(props || {});
  lastProps = key;
  return null;
}

let lastProps: string | undefined;
