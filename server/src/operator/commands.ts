import {
  AppError,
  createUserWithPassword,
  operatorDisableTwoFactor,
  passwordResetLink,
  requestPasswordReset,
  changeOrganizationPlan,
  formatDsn,
  listDeadLetters,
  Project,
  purgeDeadLetters,
  replayDeadLetters,
  rotateProjectKey,
  type Config,
  type Database,
} from '@tracker/core';

/**
 * What a command runs against: the database, the configuration, and where replayed dead letters
 * go. The operator command (cli.ts) opens the database itself; the running embedded server
 * passes its own when the command comes over the control socket (control-server.ts).
 */
export interface CommandContext {
  db: Database;
  config: Config;
  /** Queues payloads again on the queue of `topic` (`jobs`, `alerts`). */
  enqueue(topic: string, payloads: string[]): Promise<void>;
  /** Called after a project's DSN keys changed, so a running edge forgets the old key at once. */
  onProjectChanged?(projectId: string): void;
}

type Run = (ctx: CommandContext, args: string[]) => Promise<string>;

/**
 * `args`: the positional arguments, or a check of their own for commands with options
 * (returns the usage error, or undefined when the arguments are fine).
 */
export interface CommandSpec {
  args: string[] | ((args: string[]) => string | undefined);
  run: Run;
}

export const USAGE = `usage: npm run tracker -- <command>

  migrate                          apply pending database migrations
  user:create <email> [--admin]    create an account (prints a generated password); --admin: an instance admin
  user:reset-password <email>      print a password reset link (single use, 1 hour) for the account
  user:disable-two-factor <email>  turn two-factor off for a person who lost phone and recovery codes
  org:set-plan <org-slug> <plan> [--force]
                                   change an organization's plan (free, pro, business); --force overrides
                                   a live Stripe subscription
  key:rotate <project-id>          issue a new DSN key and disable the old ones
  dead-letter:list [--limit <n>]   jobs set aside by the worker, newest first, with the reason
  dead-letter:replay <id>|--all    queue dead letters again (once the cause is fixed)
  dead-letter:purge --older-than <days>
                                   delete dead letters whose last failure is older than that
  backup <file>                    the whole database (embedded: the data folder; stop Tracker first)
  restore <file> [--force]         into an empty database (--force replaces one), then migrate

Reads the same environment as the server (DATABASE_URL, TRACKER_DATA_DIR, …). On the embedded
runtime, while Tracker runs, every command but migrate, backup and restore is sent to it over the
control socket in the data folder (only the folder's owner can use it; docs/operations.md).`;

export function isCount(text: string): boolean {
  return /^\d{1,9}$/.test(text);
}

/** The commands that run against a database; `backup` and `restore` are cli.ts's own. */
export const COMMANDS: Record<string, CommandSpec> = {
  migrate: { args: [], run: async () => 'migrations are up to date' },
  'user:create': {
    args: (args) =>
      args.length === 1 || (args.length === 2 && args[1] === '--admin')
        ? undefined
        : 'user:create takes <email> [--admin]',
    run: async ({ db, config }, [email, flag]) => {
      const u = await createUserWithPassword(db.ds, email, config.defaultPlan, { admin: flag === '--admin' });
      const admin = u.isAdmin ? ', instance admin' : '';
      return `created ${u.email} (organization ${u.organizationSlug}${admin})\npassword: ${u.password}`;
    },
  },
  'user:reset-password': {
    args: ['email'],
    run: async ({ db, config }, [email]) => {
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
    run: async ({ db }, [email]) => {
      const user = await operatorDisableTwoFactor(db.ds, email);
      if (!user) throw new AppError('NOT_FOUND', `no account has the email ${email.trim().toLowerCase()}`);
      return `two-factor is off for ${user.email}; they can sign in with the password and set it up again`;
    },
  },
  'org:set-plan': {
    args: (args) =>
      args.length === 2 || (args.length === 3 && args[2] === '--force')
        ? undefined
        : 'org:set-plan takes <org-slug> <plan> [--force]',
    run: async ({ db }, [slug, plan, force]) => {
      const change = await changeOrganizationPlan(db.ds, {
        organization: { slug },
        plan,
        force: force === '--force',
      });
      const { organization: org, overrodeSubscription } = change;
      const note = overrodeSubscription
        ? ` (over its ${overrodeSubscription} Stripe subscription: Stripe's next event for it sets the plan again)`
        : '';
      return `${org.slug} is now on the ${org.plan} plan${note}`;
    },
  },
  'key:rotate': {
    args: ['project-id'],
    run: async ({ db, config, onProjectChanged }, [projectId]) => {
      const key = await rotateProjectKey(db.ds, projectId);
      onProjectChanged?.(projectId);
      const { number } = await db.ds.manager.findOneByOrFail(Project, { id: projectId });
      return `new DSN: ${formatDsn(config.publicUrl, key.publicKey, number)}`;
    },
  },
  'dead-letter:list': {
    args: (args) =>
      args.length === 0 || (args.length === 2 && args[0] === '--limit' && isCount(args[1]))
        ? undefined
        : 'dead-letter:list takes [--limit <n>]',
    run: async ({ db }, args) => {
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
    run: async ({ db, enqueue }, [which]) => {
      const replayed = await replayDeadLetters(db.ds, which === '--all' ? 'all' : [which], enqueue);
      if (replayed.length === 0) return which === '--all' ? 'no dead letters' : `no dead letter #${which}`;
      return `queued ${replayed.length} dead letter(s) again: ${replayed.map((d) => `#${d.id}`).join(', ')}`;
    },
  },
  'dead-letter:purge': {
    args: (args) =>
      args.length === 2 && args[0] === '--older-than' && isCount(args[1])
        ? undefined
        : 'dead-letter:purge takes --older-than <days>',
    run: async ({ db }, [, days]) =>
      `deleted ${await purgeDeadLetters(db.ds, Number(days))} dead letter(s) older than ${days} day(s)`,
  },
};

/** Commands a running embedded server answers over its control socket (not `migrate`: it migrated at start). */
export const CONTROL_COMMANDS: ReadonlySet<string> = new Set(Object.keys(COMMANDS).filter((n) => n !== 'migrate'));

/** The usage error of `args` for `spec`, or undefined. */
export function usageError(name: string, spec: CommandSpec, args: string[]): string | undefined {
  if (typeof spec.args === 'function') return spec.args(args);
  return args.length !== spec.args.length
    ? `${name} takes ${spec.args.map((a) => `<${a}>`).join(' ') || 'no arguments'}`
    : undefined;
}
