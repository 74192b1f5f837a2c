import type { DataSource } from 'typeorm';
import { requireInstanceAdmin, type Caller } from '../access';
import type { Config } from '../config';
import { queryRows } from '../db/query-rows';
import { countDeadLetters } from '../dead-letters';

/** What the instance runs: for the admin screen's "Instance" section. No secret, no tenant data. */
export interface InstanceStatus {
  /** `PostgreSQL 15.8`, or `PostgreSQL 18.6 (PGlite 0.5.16)` embedded. */
  databaseVersion: string;
  databaseKind: 'postgres' | 'pglite';
  /** Applied migrations, oldest first. */
  migrations: Array<{ name: string; timestamp: number }>;
  /** Migrations this build has that the database has not applied (a process that refuses them says so too). */
  pendingMigrations: string[];
  deadLetters: number;
  smtp: { configured: boolean; host: string | null; port: number | null; secure: boolean; from: string | null };
  stripe: {
    configured: boolean;
    secretKey: boolean;
    webhookSecret: boolean;
    pricePro: boolean;
    priceBusiness: boolean;
    /** From the key's prefix (`sk_test_`, `sk_live_`, `rk_…`); null without a key. */
    mode: 'test' | 'live' | null;
  };
}

/** The instance's state (instance admins only). Configuration is described, never echoed: no key, no password. */
export async function readInstanceStatus(ds: DataSource, caller: Caller, config: Config): Promise<InstanceStatus> {
  await requireInstanceAdmin(ds, caller, 'read the instance status');
  const [{ version }] = await queryRows<{ version: string }>(ds, 'SELECT version() AS version');
  // TypeORM's own table: `timestamp` is the number in the migration's name.
  const applied = await queryRows<{ name: string; timestamp: string }>(
    ds,
    'SELECT name, timestamp::text AS timestamp FROM migrations ORDER BY timestamp, id',
  );
  const appliedNames = new Set(applied.map((m) => m.name));
  const known = ds.migrations.map((m) => m.name ?? m.constructor.name);
  const key = config.billing.secretKey;
  return {
    // PGlite says so in its version ("PostgreSQL 18.6 (PGlite 0.5.16) on wasm32…"): the data source is what runs.
    databaseVersion: version.split(/ on |,/)[0],
    databaseKind: /PGlite/.test(version) ? 'pglite' : 'postgres',
    migrations: applied.map((m) => ({ name: m.name, timestamp: Number(m.timestamp) })),
    pendingMigrations: known.filter((n) => !appliedNames.has(n)),
    deadLetters: await countDeadLetters(ds),
    smtp: {
      configured: !!config.smtp,
      host: config.smtp?.host ?? null,
      port: config.smtp?.port ?? null,
      secure: config.smtp?.secure ?? false,
      from: config.smtp?.from ?? null,
    },
    stripe: {
      configured: config.billing.configured,
      secretKey: !!key,
      webhookSecret: !!config.billing.webhookSecret,
      pricePro: !!config.billing.prices.pro,
      priceBusiness: !!config.billing.prices.business,
      mode: !key ? null : /^(sk|rk)_live_/.test(key) ? 'live' : 'test',
    },
  };
}
