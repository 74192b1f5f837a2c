import { systemClock, type Clock } from '@tracker/core';

/**
 * The time the edge received something, as jobs carry it (ISO 8601). It decides, in the worker,
 * whether a snooze has ended, so it comes from the clock the edge was given, never the wall
 * clock directly: a test holds it to cross a snooze's end without waiting.
 */
export function receivedAtNow(clock: Clock = systemClock): string {
  const now = clock();
  // Busy edges receive many requests per millisecond: format each millisecond once.
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

let lastMs = NaN;
let lastIso = '';
