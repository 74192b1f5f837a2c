import { parseDsn } from '@tracker/sdk-core';
import { UploadSourceMapsError } from './errors';

/** Where the release comes from, in order: the first set and non-empty wins. */
export const RELEASE_VARIABLES = ['TRACKER_RELEASE', 'NEXT_PUBLIC_TRACKER_RELEASE', 'VERCEL_GIT_COMMIT_SHA'] as const;

export type Env = Record<string, string | undefined>;

export interface SettingsInput {
  release?: string;
  dsn?: string;
  authToken?: string;
}

export interface Settings {
  release?: string;
  /** The option or variable the release came from. */
  releaseSource?: string;
  dsn?: string;
  authToken?: string;
  /** What is missing for an upload, named as the user sets it; empty when all is there. */
  missing: string[];
}

/** Trimmed; blank counts as unset (a `$(git rev-parse HEAD)` newline must not become part of a release). */
function value(text: string | undefined): string | undefined {
  const trimmed = typeof text == 'string' ? text.trim() : '';
  return trimmed ? trimmed : undefined;
}

/** Options win over the environment; the release falls back through RELEASE_VARIABLES. */
export function resolveSettings(input: SettingsInput, env: Env): Settings {
  let release = value(input.release);
  let releaseSource = release ? 'the release option' : undefined;
  for (const name of RELEASE_VARIABLES) {
    if (release) break;
    release = value(env[name]);
    if (release) releaseSource = name;
  }
  const dsn = value(input.dsn) ?? value(env.TRACKER_DSN);
  const authToken = value(input.authToken) ?? value(env.TRACKER_AUTH_TOKEN);
  const missing: string[] = [];
  if (!authToken) missing.push('TRACKER_AUTH_TOKEN');
  if (!dsn) missing.push('TRACKER_DSN');
  if (!release) missing.push(`a release (${RELEASE_VARIABLES.join(', ')})`);
  return { release, releaseSource, dsn, authToken, missing };
}

/** The DSN's origin, scheme and port included: `https://et_k@host:8443/42` → `https://host:8443`. */
export function dsnOrigin(dsn: string): string {
  const parsed = parseDsn(dsn);
  if (!parsed) {
    throw new UploadSourceMapsError(
      'INVALID_DSN',
      'TRACKER_DSN is not a DSN of the form https://et_<key>@<host>[:port]/<projectId>; the upload needs its host',
    );
  }
  return new URL(parsed.endpoint).origin;
}
