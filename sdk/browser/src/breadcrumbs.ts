import { addBreadcrumb, instrumentConsole, isOwnRequest } from '@tracker/sdk-core';

// Every hook below is installed once per page and stays: the core's switch decides whether it
// records (`breadcrumbs: false`, `close()`). Unwrapping fetch or history on close would undo any
// wrapper another script added after ours.
let installed = false;
// Read at install, not at import: a server render imports this module where there is no `location`.
let href: string;

/** `button#save.primary`, after at most two ancestors; an id ends the walk (ids are unique). */
function selectorOf(target: EventTarget | null): string {
  const parts: string[] = [];
  for (let el = target as Element | null; el && el.tagName && parts.length < 3; el = el.parentElement) {
    const classes = [].slice.call(el.classList, 0, 2).join('.');
    parts.unshift(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (classes && '.' + classes));
    if (el.id) break;
  }
  return parts.join(' > ');
}

function navigated(): void {
  const to = location.href;
  if (to != href) addBreadcrumb({ category: 'navigation', data: { from: href, to } });
  href = to;
}

/**
 * A failed request (4xx, 5xx, or 0 for a network error), never one of the SDK's own. Reads the
 * method and URL inside the guard: they come from whatever the app passed to `fetch`, and an
 * unreadable one must not turn its response into our exception.
 */
function request(category: string, status: number, init: { method?: unknown } | undefined, input: any): void {
  try {
    const url = new URL(input.url || input, location.href).href;
    const method = String((init && init.method) || input.method || 'GET').toUpperCase();
    if ((!status || status > 399) && !isOwnRequest(url))
      addBreadcrumb({ category, level: status > 499 || !status ? 'error' : 'warning', data: { method, url, status } });
  } catch {
    // nothing worth recording
  }
}

export function installBreadcrumbs(): void {
  if (installed) return;
  installed = true;
  href = location.href;
  instrumentConsole();
  addEventListener('click', (e) => addBreadcrumb({ category: 'ui.click', message: selectorOf(e.target) }), true);
  // popstate also fires for a change of the fragment (a `#…` link, `location.hash = …`), so no
  // hashchange listener: it would only see the same navigation again.
  addEventListener('popstate', navigated);
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      navigated();
      return result;
    };
  }

  // Wrapped rather than observed: a PerformanceObserver sees neither the method nor the status
  // of a cross-origin request. The SDK's own reports pass through here too (isOwnRequest).
  const originalFetch = fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    return originalFetch.apply(this, [input, init]).then(
      (response) => (request('fetch', response.status, init, input), response),
      (error) => {
        request('fetch', 0, init, input);
        throw error;
      },
    );
  };

  const proto = XMLHttpRequest.prototype;
  const open = proto.open;
  proto.open = function (this: XMLHttpRequest, ...args: Parameters<typeof open>) {
    // `once`: a request reused after it ended gets the listener of its new open(). (One opened
    // twice before it is sent would record twice; rare enough not to spend bytes on.)
    this.addEventListener('loadend', () => request('xhr', this.status, { method: args[0] }, args[1]), { once: true });
    return open.apply(this, args);
  } as typeof open;
}
