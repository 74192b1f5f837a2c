// Bidirectional formatting characters (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, RLM,
// ALM). In event text they are almost always an attack: an RLO makes "exe.txt" read "txt.exe" and
// can make a title say the opposite of what it is. React escapes markup, not these.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text written by an event or a user, made safe to display: bidi controls become a visible
 * `[U+202E]` marker so they cannot reorder what the reader sees. Still rendered as React text.
 */
export function visibleText(value: string): string {
  return value.replace(BIDI_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
