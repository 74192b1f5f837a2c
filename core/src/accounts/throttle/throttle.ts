import { AppError } from '../../errors';
import { systemClock, type Clock } from '../../time';
import type { FailureCount, ThrottleStore } from './store';

/** What is being guessed at: each has its own per-account count; the client address has one for all. */
export type ThrottleAction = 'sign-in' | 'sign-up' | 'two-factor' | 'reset' | 'invitation';

export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** Failures per account (per action) before each further attempt has to wait. */
export const ACCOUNT_FREE_FAILURES = 5;
/** The first wait after the free failures; it doubles with each further failure, up to the cap. */
export const ACCOUNT_FIRST_WAIT_MS = 30_000;
export const ACCOUNT_MAX_WAIT_MS = 15 * 60_000;
/** Wrong 2FA codes that lock two-factor for the account for THROTTLE_WINDOW_MS. */
export const TWO_FACTOR_FAILURES = 5;
/** Failures of any action from one client address in the window before it gets 429. */
export const ADDRESS_FAILURES = 50;

export interface AuthThrottleOptions {
  clock?: Clock;
  /** Failures per address before 429 (default ADDRESS_FAILURES); tests lower it. */
  addressFailures?: number;
  /** A store that fails (Redis down) lets the attempt through, reported here. */
  onStoreError?: (err: unknown) => void;
}

/**
 * Slows guessing of passwords, 2FA codes, reset requests and invitation links, across every api
 * process (the store is shared). Keys are the normalized email (or user id, or invitation) whether
 * or not an account exists, so the answers reveal nothing about which emails have accounts.
 */
export interface AuthThrottle {
  readonly kind: ThrottleStore['kind'];
  /** Why the attempt must wait (the address, or the account), or null when it may go ahead. */
  check(action: ThrottleAction, account: string, address: string): Promise<ThrottleRefusal | null>;
  /** Counts one failure against the account and the address. */
  fail(action: ThrottleAction, account: string, address: string): Promise<void>;
  /** A success ends the account's count for that action (the address keeps its own). */
  succeed(action: ThrottleAction, account: string): Promise<void>;
}

/** A refused attempt: `address` answers HTTP 429 with Retry-After; `account` says when to retry. */
export interface ThrottleRefusal {
  scope: 'address' | 'account';
  message: string;
  /** Seconds. */
  retryAfter: number;
  /** Epoch ms when an attempt is allowed again. */
  retryAt: number;
}

/** The refusal as the domain error (RATE_LIMITED, with retryAfter). */
export const refusalError = (r: ThrottleRefusal) => new AppError('RATE_LIMITED', r.message, r.retryAfter);

const accountKey = (action: ThrottleAction, account: string) => `${action}:${account}`;
const addressKey = (address: string) => `address:${address}`;

/** When the account may try again after `count`, or 0 when it may now. */
export function accountRetryAt(action: ThrottleAction, count: FailureCount | null): number {
  if (!count) return 0;
  if (action === 'two-factor') {
    return count.failures >= TWO_FACTOR_FAILURES ? count.lastAt + THROTTLE_WINDOW_MS : 0;
  }
  if (count.failures < ACCOUNT_FREE_FAILURES) return 0;
  const wait = Math.min(ACCOUNT_MAX_WAIT_MS, ACCOUNT_FIRST_WAIT_MS * 2 ** (count.failures - ACCOUNT_FREE_FAILURES));
  return count.lastAt + wait;
}

const clockTime = (ms: number) => new Date(ms).toISOString().slice(11, 19) + ' UTC';

export function createAuthThrottle(store: ThrottleStore, options: AuthThrottleOptions = {}): AuthThrottle {
  const clock = options.clock ?? systemClock;
  const addressLimit = options.addressFailures ?? ADDRESS_FAILURES;
  const guarded = async <T>(work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (err) {
      (options.onStoreError ?? ((e) => console.error('auth throttle store failed; attempt let through', e)))(err);
      return null;
    }
  };
  return {
    kind: store.kind,
    async check(action, account, address) {
      const now = clock();
      const [byAddress, byAccount] = await Promise.all([
        guarded(() => store.read(addressKey(address), now, THROTTLE_WINDOW_MS)),
        guarded(() => store.read(accountKey(action, account), now, THROTTLE_WINDOW_MS)),
      ]);
      if (byAddress && byAddress.failures >= addressLimit) {
        const retryAt = byAddress.lastAt + THROTTLE_WINDOW_MS;
        const retryAfter = Math.max(1, Math.ceil((retryAt - now) / 1000));
        return {
          scope: 'address',
          message: `Too many failed attempts from this address: try again in ${retryAfter} s`,
          retryAfter,
          retryAt,
        };
      }
      const retryAt = accountRetryAt(action, byAccount);
      if (retryAt > now) {
        const retryAfter = Math.max(1, Math.ceil((retryAt - now) / 1000));
        const what =
          action === 'two-factor'
            ? `Two-factor is locked for this account after ${TWO_FACTOR_FAILURES} wrong codes`
            : 'Too many failed attempts for this account';
        // Counted against the address too: hammering a locked account is still guessing.
        await guarded(() => store.fail(addressKey(address), now, THROTTLE_WINDOW_MS));
        return {
          scope: 'account',
          message: `${what}: try again at ${clockTime(retryAt)} (in ${retryAfter} s)`,
          retryAfter,
          retryAt,
        };
      }
      return null;
    },
    async fail(action, account, address) {
      const now = clock();
      await Promise.all([
        guarded(() => store.fail(addressKey(address), now, THROTTLE_WINDOW_MS)),
        guarded(() => store.fail(accountKey(action, account), now, THROTTLE_WINDOW_MS)),
      ]);
    },
    async succeed(action, account) {
      await guarded(() => store.clear(accountKey(action, account)));
    },
  };
}
