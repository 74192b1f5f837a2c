/**
 * Milliseconds since the epoch, as `Date.now()` answers. Every rule that depends on the time
 * takes one from its caller instead of reading the wall clock, so a test can hold or move time
 * (a month turning, a lease lapsing, a snooze ending) without waiting for it.
 */
export type Clock = () => number;

/** The wall clock: what the processes pass; only composition code and tests choose another. */
export const systemClock: Clock = () => Date.now();
