/** UUID v4: `crypto.randomUUID` where present (secure contexts, Node), else built by hand. */
export function createEventId(): string {
  const c = (globalThis as { crypto?: { randomUUID?(): string; getRandomValues?(bytes: Uint8Array): unknown } }).crypto;
  if (c && c.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && c.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = (Math.random() * 256) | 0;
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  let hex = '';
  for (let i = 0; i < 16; i++) {
    hex += (bytes[i] + 0x100).toString(16).slice(1);
    if (i == 3 || i == 5 || i == 7 || i == 9) hex += '-';
  }
  return hex;
}
