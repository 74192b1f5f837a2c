import './prewarm';
import { ConfigError, DataDirLockedError, loadConfig, ROLES, StorageError } from '@tracker/core';
import { parseRolesArg } from './roles-arg';
import { createTracker } from './create-tracker';

/** `npm start`: every role in one process unless `--roles` or TRACKER_ROLES says otherwise. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, parseRolesArg(process.argv.slice(2)));
  // The all-in-one process migrates at start (the two-command quick start); a process with a
  // subset of roles is one of many and must not race the others: it refuses pending migrations.
  const tracker = await createTracker({ config, migrate: config.roles.length === ROLES.length });
  let url: string;
  try {
    url = await tracker.listen();
  } catch (err) {
    // Close what started (the data folder's lock included) before saying why in one line.
    await tracker.close().catch(() => {});
    throw describeListenError(err, config.host, config.port);
  }
  tracker.app.log.info(
    { roles: config.roles, database: tracker.db.kind, queue: tracker.queue.kind },
    `Tracker listening on ${url} (public URL ${config.publicUrl})`,
  );
  const shutdown = (signal: string) => {
    tracker.app.log.info(`${signal}: shutting down`);
    // close() keeps to config.shutdownTimeoutMs; this is the backstop should a step not return.
    setTimeout(() => {
      console.error(`${signal}: shutdown did not finish in time; exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs + 1_500).unref();
    tracker.close().then(
      (report) => process.exit(report.abandoned.length > 0 ? 1 : 0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** A failure the operator can act on, said in one line without a stack. */
class StartupError extends Error {}

/** The address being taken or refused is the operator's to fix: say which and how. */
function describeListenError(err: unknown, host: string, port: number): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `Port ${port} is already in use on ${host}: stop the process using it, or start Tracker with PORT set to a free port.`,
    );
  }
  if (code === 'EACCES') {
    return new StartupError(`Port ${port} on ${host} needs privileges this process lacks: use a port above 1023.`);
  }
  if (code === 'EADDRNOTAVAIL') {
    return new StartupError(`HOST ${host} is not an address of this machine: use 0.0.0.0 or one of its addresses.`);
  }
  return err;
}

main().catch((err) => {
  if (
    err instanceof ConfigError ||
    err instanceof DataDirLockedError ||
    err instanceof StorageError ||
    err instanceof StartupError
  )
    console.error(err.message);
  else console.error(err);
  process.exit(1);
});
