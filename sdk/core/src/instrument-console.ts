import { addBreadcrumb } from './breadcrumbs';

// Set while a breadcrumb is being made: an argument's toString or a getter that logs again
// (or anything the SDK might log) must not record itself forever.
let busy = false;

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
          addBreadcrumb({ category: 'console', level: name == 'warn' ? 'warning' : name, message: args.map(String).join(' ') });
        } catch {
          // String(value) may throw (an object without a prototype): the call still goes through.
          // String, not JSON: this runs on every console call, so objects are not serialized.
        }
        busy = false;
      }
      return original.apply(this, args);
    };
  }
}
