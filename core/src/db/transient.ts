/**
 * SQLSTATE classes that say "the database or the connection", not "this data": connection
 * exceptions (08), transaction rollbacks such as serialization failures and deadlocks (40),
 * insufficient resources such as a full disk (53), operator intervention such as a shutdown,
 * a restart or a cancelled statement (57) and system errors (58).
 */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57', '58']);
/** Single SQLSTATEs outside those classes: a lock not available (55P03), read-only (25006). */
const TRANSIENT_SQLSTATES = new Set(['55P03', '25006']);
/** Node's socket and file errors that a retry can outlive. */
const TRANSIENT_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENOSPC',
  'EROFS',
  'EIO',
  'EAGAIN',
]);
/** What node-postgres, TypeORM, PGlite and our own timeouts say when no SQLSTATE comes with it. */
const TRANSIENT_MESSAGE =
  /connection terminated|connection (?:timeout|error)|timeout exceeded when trying to connect|terminating connection|the database system is (?:starting up|shutting down|in recovery mode)|server closed the connection|cannot connect now|Client has encountered a connection error|Connection is closed|The client is closed|PGlite is closed|timed out after \d+ ms/i;

/**
 * True when `err` says the database (or the connection to it) failed, not the statement's data:
 * the same work may succeed if tried again later, so it must be retried with back-off and never
 * set aside as a dead letter. Looks through TypeORM's `QueryFailedError` (`driverError`) and
 * `cause` chains. Anything unknown counts as not transient: a data error is retried a few times
 * and then set aside with its reason, where an operator sees it.
 */
export function isTransientError(err: unknown): boolean {
  return someInErrorChain(err, (e) => {
    const { code, message, transient, errno } = e as {
      code?: unknown;
      message?: unknown;
      transient?: unknown;
      errno?: unknown;
    };
    if (transient === true) return true;
    if (typeof code === 'string') {
      if (
        /^[0-9A-Z]{5}$/.test(code) &&
        (TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2)) || TRANSIENT_SQLSTATES.has(code))
      )
        return true;
      if (TRANSIENT_ERRNO.has(code)) return true;
    }
    if (typeof errno === 'string' && TRANSIENT_ERRNO.has(errno)) return true;
    return typeof message === 'string' && TRANSIENT_MESSAGE.test(message);
  });
}

/**
 * True when `test` holds for `err` or for an error it wraps: TypeORM's `QueryFailedError` keeps the
 * driver's error (with the SQLSTATE `code` and `detail`) in `driverError`, others in `cause`.
 */
export function someInErrorChain(err: unknown, test: (e: object) => boolean): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (test(e)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
