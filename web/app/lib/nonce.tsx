import { createContext, useContext } from 'react';

// The per-request CSP nonce, provided by entry.server around the whole app. In the browser it is
// empty: the nonce only matters for the inline scripts in the server's HTML, and browsers hide
// the attribute's value from the DOM anyway.
const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
