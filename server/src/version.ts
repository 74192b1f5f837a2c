import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Tracker's version as the admin screen shows it: the server package's, read from src/ or dist/ alike. */
export function readTrackerVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
