// What @tracker/server passes as the load context on every request: the handler returned by
// `createRequestHandler(build, mode)` is called as `handler(request, { apiUrl, sessionSecret })`.
// The dashboard reaches the rest of the product only through `apiUrl`.
declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Absolute URL of the GraphQL endpoint, e.g. http://127.0.0.1:3000/graphql */
    apiUrl: string;
    /** Signs the session cookie; a fixed development secret is used when absent. */
    sessionSecret?: string;
    /** Optional CSP nonce chosen by the server; entry.server makes one per response otherwise. */
    cspNonce?: string;
  }
}

export {};
