import { ConfigError, ROLES, type Config, type ServiceRole } from '@tracker/core';

/** `--roles ingest,worker` (or `--roles=…`) overrides TRACKER_ROLES. */
export function parseRolesArg(argv: string[]): Partial<Config> {
  const i = argv.findIndex((a) => a === '--roles' || a.startsWith('--roles='));
  if (i === -1) return {};
  const value = argv[i].includes('=') ? argv[i].slice('--roles='.length) : argv[i + 1];
  const roles = (value ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (roles.length === 0 || unknown.length > 0) {
    throw new ConfigError([`--roles: expected a comma-separated subset of ${ROLES.join(', ')}`]);
  }
  return { roles: roles as ServiceRole[] };
}
