import type { NodeOptions } from '@tracker/node';
import { RELEASE_VARIABLES, type Env } from '../sourcemaps/resolve-settings';

/** `register()`'s options: those of `@tracker/node`, every one optional (the DSN too). */
export type NextServerOptions = NodeOptions;

function value(text: string | undefined): string | undefined {
  const trimmed = typeof text == 'string' ? text.trim() : '';
  return trimmed ? trimmed : undefined;
}

/**
 * The Node SDK's options for this process, or null when the SDK must stay off: outside Next's
 * Node.js runtime (the edge runtime has no process hooks and no `process.on`), or without a
 * DSN. The release falls back through the same variables as the source-map uploader, so
 * server events and uploaded maps name the same release without extra set-up.
 */
export function resolveServerOptions(
  options: NextServerOptions,
  env: Env,
  runtime: string | undefined,
): NodeOptions | null {
  if (runtime !== 'nodejs') return null;
  const dsn = value(options.dsn) ?? value(env.TRACKER_DSN);
  if (!dsn) return null;
  let release = value(options.release);
  for (const name of RELEASE_VARIABLES) release ??= value(env[name]);
  // Next owns the process: it logs a request's error and keeps serving, so an uncaught
  // exception must not be turned into an exit by the SDK unless the app asks for it.
  return { ...options, dsn, release, exitOnFatal: options.exitOnFatal ?? false };
}
