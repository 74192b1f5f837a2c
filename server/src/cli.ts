import {
  errorMessage,
  ConfigError,
  DataDirLockedError,
  isAppError,
  loadConfig,
  openDatabase,
  type Config,
  type Database,
} from '@tracker/core';
import { backup, BackupError, restore } from './backup';
import { createQueue } from './create-queue';
import { COMMANDS, CONTROL_COMMANDS, USAGE, usageError, type CommandSpec } from './operator/commands';
import { sendControlCommand } from './operator/control-client';

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

/** The operator command. Exit codes: 0 done, 1 failed, 2 bad usage. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<{ code: number; out: string }> {
  const [name, ...args] = argv;
  const command: CommandSpec | undefined = name
    ? (COMMANDS[name] ??
      (name in FILE_COMMANDS
        ? { args: FILE_COMMANDS[name as keyof typeof FILE_COMMANDS], run: async () => '' }
        : undefined))
    : undefined;
  if (!command) return { code: 2, out: name ? `unknown command "${name}"\n\n${USAGE}` : USAGE };
  const problem = usageError(name, command, args);
  if (problem) return { code: 2, out: `${problem}\n\n${USAGE}` };
  if (name === 'backup' || name === 'restore') return backupCommand(name, args, env);
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    return { code: 1, out: `error: ${errorMessage(err)}` };
  }
  // Embedded: a running server holds the folder (one process per folder), so the command goes
  // to it over the control socket in the folder; with no server there, the folder is opened here.
  let noServer = '';
  if (!config.databaseUrl && CONTROL_COMMANDS.has(name)) {
    const sent = await sendControlCommand(config.dataDir, name, args);
    if (sent.kind === 'answered') return sent.answer;
    if (sent.kind === 'refused') return { code: 1, out: `error: ${sent.message}` };
    noServer = sent.why;
  }
  let db: Database | undefined;
  const queues = new Map<string, Awaited<ReturnType<typeof createQueue>>>();
  try {
    db = await openDatabase(config, { migrate: name === 'migrate', poolSize: 2 });
    if (name !== 'migrate' && (await db.ds.showMigrations())) {
      return { code: 1, out: 'error: the database has pending migrations: run `npm run tracker -- migrate` first' };
    }
    const opened = db;
    const out = await command.run(
      {
        db: opened,
        config,
        enqueue: async (topic, payloads) => {
          let queue = queues.get(topic);
          if (!queue) queues.set(topic, (queue = await createQueue(config, opened, {}, topic)));
          await queue.enqueue(payloads);
        },
      },
      args,
    );
    return { code: 0, out };
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      // Held, and its holder did not answer on the control socket (still starting, or a build
      // from before the socket): say both.
      const why = noServer
        ? ` It did not answer on its control socket (${noServer}): wait for it to start, or stop it.`
        : '';
      return { code: 1, out: `error: ${err.message}${why}` };
    }
    if (err instanceof ConfigError || isAppError(err)) {
      return { code: 1, out: `error: ${errorMessage(err)}` };
    }
    return { code: 1, out: `error: ${(err as Error).stack ?? String(err)}` };
  } finally {
    for (const q of queues.values()) await q.close();
    await db?.close();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(({ code, out }) => {
    (code === 0 ? console.log : console.error)(out);
    process.exit(code);
  });
}
