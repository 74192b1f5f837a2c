import type { Config, Database } from '@tracker/core';
import { startControlServer, type ControlServer } from './control-server';
import { runCommandInServer } from './run-command';

export type { ControlServer };

/**
 * The embedded server's control socket, answering operator commands with this process's
 * database and queues. A failure to make it is logged, not fatal: the server works without it.
 */
export async function startOperatorControl(options: {
  config: Config;
  db: Database;
  enqueue(topic: string, payloads: string[]): Promise<void>;
  onProjectChanged(projectId: string): void;
  log(level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>): void;
}): Promise<ControlServer | null> {
  const { config, db, enqueue, onProjectChanged, log } = options;
  try {
    return await startControlServer({
      dataDir: config.dataDir,
      log,
      run: (command, args) =>
        runCommandInServer({ db, config, enqueue, onProjectChanged }, command, args, (err, name) =>
          log('error', 'operator command failed', { err, command: name }),
        ),
    });
  } catch (err) {
    log('warn', 'no control socket: operator commands need Tracker stopped', { err });
    return null;
  }
}
