import { isErrorLike, normalizeThrown, type NormalizedError } from './normalize-thrown';

/** Causes sent per event: deeper chains are wrappers of wrappers, and cost bytes on every event. */
export const MAX_CAUSES = 5;

/**
 * The `cause` chain of a thrown value (docs/wire.md, `causes`): `[error.cause,
 * error.cause.cause, …]`, at most `MAX_CAUSES`, stopping at a cycle. A cause that is not an
 * error is `{ type: its constructor name or typeof, message: String(value) }`. Undefined when
 * there is none. A `cause` getter or a `toString` that throws ends the chain there.
 */
export function readCauses(value: unknown): NormalizedError[] | undefined {
  const causes: NormalizedError[] = [];
  const seen = [value];
  try {
    for (let cause = value; causes.length < MAX_CAUSES;) {
      cause = cause != null && typeof cause == 'object' ? (cause as { cause?: unknown }).cause : undefined;
      if (cause == null || seen.indexOf(cause) >= 0) break;
      seen.push(cause);
      causes.push(
        isErrorLike(cause)
          ? normalizeThrown(cause)
          : {
              type: (typeof cause == 'object' && (cause as object).constructor?.name) || typeof cause,
              message: String(cause).slice(0, 8_192),
            },
      );
    }
  } catch {
    // keep the causes read so far
  }
  return causes.length ? causes : undefined;
}
