import { ConfigError, errorMessage, isAppError } from '@tracker/core';
import { COMMANDS, USAGE, usageError, type CommandContext } from './commands';
import type { ControlAnswer } from './control-protocol';

/**
 * Runs one operator command inside the running server (a request from the control socket),
 * answering as the command line would: 0 done, 1 failed, 2 bad usage. Unexpected failures go to
 * the server's log with their stack; the answer carries the message.
 */
export async function runCommandInServer(
  ctx: CommandContext,
  name: string,
  args: string[],
  logError: (err: unknown, command: string) => void,
): Promise<ControlAnswer> {
  const spec = COMMANDS[name];
  if (!spec) return { code: 2, out: `unknown command "${name}"\n\n${USAGE}` };
  const problem = usageError(name, spec, args);
  if (problem) return { code: 2, out: `${problem}\n\n${USAGE}` };
  try {
    return { code: 0, out: await spec.run(ctx, args) };
  } catch (err) {
    if (isAppError(err) || err instanceof ConfigError) return { code: 1, out: `error: ${errorMessage(err)}` };
    logError(err, name);
    return { code: 1, out: `error: ${errorMessage(err)} (the server's log has the details)` };
  }
}
