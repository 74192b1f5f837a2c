// An event's `user` is whatever JSON object the SDK sent (id, email, username, ip_address, any
// other keys), so nothing about its shape is trusted: only strings and numbers are shown.

function readScalar(user: Record<string, unknown>, key: string): string | null {
  const value = user[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * Who an event happened to, in one line: the id (what "users affected" counts) with the email
 * when both are there, else the email, username or IP address; null when the SDK named nobody.
 * Still event text: render it through `visibleText`, as React text.
 */
export function describeEventUser(user: Record<string, unknown> | null | undefined): string | null {
  if (!user) return null;
  const id = readScalar(user, 'id');
  const email = readScalar(user, 'email');
  if (id && email && id !== email) return `${id} (${email})`;
  return id ?? email ?? readScalar(user, 'username') ?? readScalar(user, 'ip_address');
}
