import {
  AppError,
  errorMessage,
  operatorDisableTwoFactor,
  passwordResetLink,
  requestPasswordReset,
  ConfigError,
  createUserWithPassword,
  DataDirLockedError,
  formatDsn,
  Project,
  isAppError,
  listDeadLetters,
  loadConfig,
  purgeDeadLetters,
  replayDeadLetters,
  openDatabase,
  rotateProjectKey,
  setOrganizationPlan,
  type Config,
  type Database,
} from '@tracker/core';
import { backup, BackupError, restore } from './backup';
import { createQueue } from './create-queue';

const USAGE = `usage: npm run tracker -- <command>

  migrate                          apply pending database migrations
  user:create <email>              create an account (prints a generated password)
  user:reset-password <email>      print a password reset link (single use, 1 hour) for the account
  user:disable-two-factor <email>  turn two-factor off for a person who lost phone and recovery codes
  org:set-plan <org-slug> <plan>   change an organization's plan (free, pro, business)
  key:rotate <project-id>          issue a new DSN key and disable the old ones
  dead-letter:list [--limit <n>]   jobs set aside by the worker, newest first, with the reason
  dead-letter:replay <id>|--all    queue dead letters again (once the cause is fixed)
  dead-letter:purge --older-than <days>
                                   delete dead letters whose last failure is older than that
  backup <file>                    the whole database (embedded: the data folder; stop Tracker first)
  restore <file> [--force]         into an empty database (--force replaces one), then migrate

Reads the same environment as the server (DATABASE_URL, TRACKER_DATA_DIR, …).`;

type Command = (db: Database, args: string[], config: Config) => Promise<string>;

/**
 * `args`: the positional arguments, or a check of their own for commands with options
 * (returns the usage error, or undefined when the arguments are fine).
 */
const COMMANDS: Record<string, { args: string[] | ((args: string[]) => string | undefined); run: Command }> = {
  migrate: { args: [], run: async () => 'migrations are up to date' },
  'user:create': {
    args: ['email'],
    run: async (db, [email], config) => {
      const u = await createUserWithPassword(db.ds, email, config.defaultPlan);
      return `created ${u.email} (organization ${u.organizationSlug})\npassword: ${u.password}`;
    },
  },
  'user:reset-password': {
    args: ['email'],
    run: async (db, [email], config) => {
      // The operator hands the link on: it does not prove the address (by_email false).
      const request = await requestPasswordReset(db.ds, email, Date.now(), false);
      if (!request) throw new AppError('NOT_FOUND', `no account has the email ${email.trim().toLowerCase()}`);
      return (
        `reset link for ${request.user.email} (single use, valid until ${request.expiresAt.toISOString()}; ` +
        `older links stop working; using it signs out every session):\n${passwordResetLink(config.publicUrl, request.token)}`
      );
    },
  },
  'user:disable-two-factor': {
    args: ['email'],
    run: async (db, [email]) => {
      const user = await operatorDisableTwoFactor(db.ds, email);
      if (!user) throw new AppError('NOT_FOUND', `no account has the email ${email.trim().toLowerCase()}`);
      return `two-factor is off for ${user.email}; they can sign in with the password and set it up again`;
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
      const { number } = await db.ds.manager.findOneByOrFail(Project, { id: projectId });
      return `new DSN: ${formatDsn(config.publicUrl, key.publicKey, number)}`;
    },
  },
  'dead-letter:list': {
    args: (args) =>
      args.length === 0 || (args.length === 2 && args[0] === '--limit' && isCount(args[1]))
        ? undefined
        : 'dead-letter:list takes [--limit <n>]',
    run: async (db, args) => {
      const letters = await listDeadLetters(db.ds, { limit: args.length === 2 ? Number(args[1]) : 50 });
      if (letters.length === 0) return 'no dead letters';
      return letters
        .map(
          (d) =>
            `#${d.id}  ${d.topic}/${d.kind ?? '?'}  project ${d.projectId ?? '?'}  item ${d.itemId ?? '?'}\n` +
            `    ${d.attempts} attempt(s), first failed ${d.firstFailedAt.toISOString()}, last ${d.lastFailedAt.toISOString()}\n` +
            `    ${d.error.split('\n')[0].slice(0, 300)}`,
        )
        .join('\n');
    },
  },
  'dead-letter:replay': {
    args: (args) =>
      args.length === 1 && (args[0] === '--all' || isCount(args[0]))
        ? undefined
        : 'dead-letter:replay takes <id> or --all',
    run: async (db, [which], config) => {
      const queues = new Map<string, Awaited<ReturnType<typeof createQueue>>>();
      try {
        const replayed = await replayDeadLetters(
          db.ds,
          which === '--all' ? 'all' : [which],
          async (topic, payloads) => {
            let queue = queues.get(topic);
            if (!queue) queues.set(topic, (queue = await createQueue(config, db, {}, topic)));
            await queue.enqueue(payloads);
          },
        );
        if (replayed.length === 0) return which === '--all' ? 'no dead letters' : `no dead letter #${which}`;
        return `queued ${replayed.length} dead letter(s) again: ${replayed.map((d) => `#${d.id}`).join(', ')}`;
      } finally {
        for (const q of queues.values()) await q.close();
      }
    },
  },
  'dead-letter:purge': {
    args: (args) =>
      args.length === 2 && args[0] === '--older-than' && isCount(args[1])
        ? undefined
        : 'dead-letter:purge takes --older-than <days>',
    run: async (db, [, days]) =>
      `deleted ${await purgeDeadLetters(db.ds, Number(days))} dead letter(s) older than ${days} day(s)`,
  },
};

/** Outside COMMANDS: they take the data folder's lock themselves, or run PostgreSQL's tools. */
const FILE_COMMANDS = {
  backup: (args: string[]) => (args.length === 1 ? undefined : 'backup takes <file>'),
  restore: (args: string[]) =>
    args.length === 1 || (args.length === 2 && args[1] === '--force') ? undefined : 'restore takes <file> [--force]',
};

async function backupCommand(
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; out: string }> {
  try {
    const config = loadConfig(env);
    const out =
      name === 'backup' ? await backup(config, args[0]) : await restore(config, args[0], args[1] === '--force');
    return { code: 0, out };
  } catch (err) {
    if (err instanceof BackupError || err instanceof ConfigError || isAppError(err)) {
      return { code: 1, out: `error: ${errorMessage(err)}` };
    }
    return { code: 1, out: `error: ${(err as Error).stack ?? String(err)}` };
  }
}

function isCount(text: string): boolean {
  return /^\d{1,9}$/.test(text);
}

/** The operator command. Exit codes: 0 done, 1 failed, 2 bad usage. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<{ code: number; out: string }> {
  const [name, ...args] = argv;
  const command = name
    ? (COMMANDS[name] ??
      (name in FILE_COMMANDS
        ? { args: FILE_COMMANDS[name as keyof typeof FILE_COMMANDS], run: async () => '' }
        : undefined))
    : undefined;
  if (!command) return { code: 2, out: name ? `unknown command "${name}"\n\n${USAGE}` : USAGE };
  const usageError =
    typeof command.args === 'function'
      ? command.args(args)
      : args.length !== command.args.length
        ? `${name} takes ${command.args.map((a) => `<${a}>`).join(' ') || 'no arguments'}`
        : undefined;
  if (usageError) return { code: 2, out: `${usageError}\n\n${USAGE}` };
  if (name === 'backup' || name === 'restore') return backupCommand(name, args, env);
  let db: Database | undefined;
  try {
    const config = loadConfig(env);
    db = await openDatabase(config, { migrate: name === 'migrate', poolSize: 2 });
    if (name !== 'migrate' && (await db.ds.showMigrations())) {
      return { code: 1, out: 'error: the database has pending migrations: run `npm run tracker -- migrate` first' };
    }
    return { code: 0, out: await command.run(db, args, config) };
  } catch (err) {
    if (err instanceof DataDirLockedError && name.startsWith('dead-letter:')) {
      // The embedded runtime's folder is held by the running server (one process per folder).
      return {
        code: 1,
        out:
          `error: ${err.message}\n` +
          `Dead letters live in that folder: stop Tracker, run \`npm run tracker -- ${argv.join(' ')}\`, then start it ` +
          `again (replayed jobs are processed at the next start). With PostgreSQL (DATABASE_URL) these commands run ` +
          `while Tracker runs.`,
      };
    }
    if (err instanceof ConfigError || err instanceof DataDirLockedError || isAppError(err)) {
      return { code: 1, out: `error: ${errorMessage(err)}` };
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
