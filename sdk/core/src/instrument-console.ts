import { addBreadcrumb } from './breadcrumbs';

// Set while a breadcrumb is being made: an argument's toString or a getter that logs again
// (or anything the SDK might log) must not record itself forever.
let busy = false;

/**
 * An argument as text, cheaply (this runs on every console call, so nothing is serialized) and
 * without running the app's code: an object's own `toString` could log, or change state, only
 * because the SDK looked at it. Errors show as `TypeError: message`.
 */
function describe(value: unknown): string {
  return value && typeof value == 'object' && !(value instanceof Error) ? {}.toString.call(value) : String(value);
}

/**
 * Wraps `console.warn` and `console.error` to record a `console` breadcrumb.
 * The original is always called, with the same `this` and arguments, and its result returned:
 * what the console prints does not change. The wrapper stays installed when the SDK is turned
 * off (unwrapping would undo any wrapper added after ours); it then records nothing. The
 * platforms call it once.
 */
export function instrumentConsole(): void {
  for (const name of ['warn', 'error'] as const) {
    const original = console[name];
    console[name] = function (this: unknown, ...args: unknown[]) {
      if (!busy) {
        busy = true;
        try {
          addBreadcrumb({
            category: 'console',
            level: name == 'warn' ? 'warning' : name,
            message: args.map(describe).join(' '),
          });
        } catch {
          // a value that cannot be turned into text: the call still goes through
        }
        busy = false;
      }
      return original.apply(this, args);
    };
  }
}
