// What @tracker/server passes as the load context on every request: the handler returned by
// `createRequestHandler(build, mode)` is called as `handler(request, { apiUrl, sessionSecret })`.
// The dashboard reaches the rest of the product only through `apiUrl`.
declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Absolute URL of the GraphQL endpoint, e.g. http://127.0.0.1:3000/graphql */
    apiUrl: string;
    /** Signs the session cookie; a fixed development secret is used when absent. */
    sessionSecret?: string;
    /**
     * Whether the session cookie gets `Secure`: the browser reached us over https (directly, or by
     * a trusted proxy's X-Forwarded-Proto), or the public URL is https. Absent: the request's scheme.
     */
    secureCookies?: boolean;
    /**
     * The browser's address signed for the API (sent as X-Tracker-Client-Address), so the API
     * rate-limits signed-out calls per browser rather than per web process; set by the server.
     */
    signedClientAddress?: string;
    /** The browser's User-Agent, forwarded to the API for its audit log (X-Tracker-Client-User-Agent). */
    clientUserAgent?: string;
    /** Optional CSP nonce chosen by the server; entry.server makes one per response otherwise. */
    cspNonce?: string;
    /** The SDKs this instance serves under /sdk/ (absent when they were not built): the setup page's URLs. */
    sdk?: SdkSetup;
  }
}

/** Absolute, versioned URLs of the SDK files this instance serves, and the SRI hashes of the scripts. */
export interface SdkSetup {
  publicUrl: string;
  version: string;
  scriptUrl: string;
  scriptIntegrity: string;
  moduleUrl: string;
  moduleIntegrity: string;
  tarballs: { browser: string; node: string; next: string };
}

export {};
