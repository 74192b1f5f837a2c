/** A before/after summary: small JSON values, never a secret (`safeChanges` enforces it). */
export interface AuditChanges {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/**
 * Keys that name a secret. A value under such a key is never stored, whatever it holds: the
 * summary says that it changed (`"[redacted]"`), not what it is. Prefixes (`tokenPrefix`, the
 * first 12 characters shown in every list) are not secrets and are kept.
 */
const SECRET_KEY = /secret|password|passphrase|hash|^token$|^key$|private|credential|recovery/i;

/** Longest string kept in a summary; longer ones are cut (a summary, not a copy). */
export const MAX_AUDIT_STRING_CHARS = 500;
/** Most keys or items kept at one level. */
const MAX_ITEMS = 50;
const MAX_DEPTH = 4;

function clean(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    return value.length > MAX_AUDIT_STRING_CHARS ? `${value.slice(0, MAX_AUDIT_STRING_CHARS - 1)}…` : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => clean(v, depth + 1));
  if (typeof value === 'object') return cleanObject(value as Record<string, unknown>, depth + 1);
  return String(value);
}

function cleanObject(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, MAX_ITEMS)) {
    if (v === undefined) continue;
    out[key] = SECRET_KEY.test(key) && !/prefix$/i.test(key) ? '[redacted]' : clean(v, depth);
  }
  return out;
}

/** The summary as stored: secrets redacted by key, strings and lists bounded. */
export function safeChanges(changes: AuditChanges | undefined): AuditChanges | null {
  if (!changes) return null;
  const out: AuditChanges = {};
  if (changes.before) out.before = cleanObject(changes.before, 0);
  if (changes.after) out.after = cleanObject(changes.after, 0);
  return out.before || out.after ? out : null;
}
