import type { Clock } from './types';

export interface Deduplicator {
  /** The event id already sent for this key inside the window, or undefined if it is new. */
  findRecent(key: string): string | undefined;
  remember(key: string, eventId: string): void;
}

/**
 * Remembers recently sent errors by a key (type, message, stack, fingerprint, level). A Map
 * keeps insertion order, so forgetting the oldest entry is O(1) and memory stays bounded
 * even when a loop throws distinct errors.
 */
export function createDeduplicator(windowMs: number, maxKeys: number, clock: Clock): Deduplicator {
  const seen = new Map<string, [number, string]>();
  return {
    findRecent(key) {
      const entry = seen.get(key);
      if (entry && clock.now() - entry[0] < windowMs) return entry[1];
      return undefined;
    },
    remember(key, eventId) {
      seen.delete(key);
      seen.set(key, [clock.now(), eventId]);
      if (seen.size > maxKeys) seen.delete(seen.keys().next().value as string);
    },
  };
}
