/** Only same-origin paths: an open redirect after login would be a phishing aid. */
export function safeRedirectPath(to: FormDataEntryValue | string | null, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) {
    return fallback;
  }
  return to;
}
