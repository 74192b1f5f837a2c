import {
  ConfigError,
  createUserWithPassword,
  DataDirLockedError,
  formatDsn,
  isAppError,
  loadConfig,
  openDatabase,
  rotateProjectKey,
  setOrganizationPlan,
  type Config,
  type Database,
} from '@tracker/core';

const USAGE = `usage: npm run tracker -- <command>

  migrate                          apply pending database migrations
  user:create <email>              create an account (prints a generated password)
  org:set-plan <org-slug> <plan>   change an organization's plan (free, pro, business)
  key:rotate <project-id>          issue a new DSN key and disable the old ones

Reads the same environment as the server (DATABASE_URL, TRACKER_DATA_DIR, …).`;

type Command = (db: Database, args: string[], config: Config) => Promise<string>;

const COMMANDS: Record<string, { args: string[]; run: Command }> = {
  migrate: { args: [], run: async () => 'migrations are up to date' },
  'user:create': {
    args: ['email'],
    run: async (db, [email], config) => {
      const u = await createUserWithPassword(db.ds, email, config.defaultPlan);
      return `created ${u.email} (organization ${u.organizationSlug})\npassword: ${u.password}`;
    },
  },
  'org:set-plan': {
    args: ['org-slug', 'plan'],
    run: async (db, [slug, plan]) => {
      const org = await setOrganizationPlan(db.ds, slug, plan);
      return `${org.slug} is now on the ${org.plan} plan`;
    },
  },
  'key:rotate': {
    args: ['project-id'],
    run: async (db, [projectId], config) => {
      const key = await rotateProjectKey(db.ds, projectId);
      return `new DSN: ${formatDsn(config.publicUrl, key.publicKey, projectId)}`;
    },
  },
};

/** The operator command. Exit codes: 0 done, 1 failed, 2 bad usage. */
export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<{ code: number; out: string }> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) return { code: 2, out: name ? `unknown command "${name}"\n\n${USAGE}` : USAGE };
  if (args.length !== command.args.length) {
    return { code: 2, out: `${name} takes ${command.args.map((a) => `<${a}>`).join(' ') || 'no arguments'}\n\n${USAGE}` };
  }
  let db: Database | undefined;
  try {
    const config = loadConfig(env);
    db = await openDatabase(config, { migrate: name === 'migrate', poolSize: 2 });
    if (name !== 'migrate' && (await db.ds.showMigrations())) {
      return { code: 1, out: 'error: the database has pending migrations: run `npm run tracker -- migrate` first' };
    }
    return { code: 0, out: await command.run(db, args, config) };
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirLockedError || isAppError(err)) {
      return { code: 1, out: `error: ${(err as Error).message}` };
    }
    return { code: 1, out: `error: ${(err as Error).stack ?? String(err)}` };
  } finally {
    await db?.close();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(({ code, out }) => {
    (code === 0 ? console.log : console.error)(out);
    process.exit(code);
  });
}
