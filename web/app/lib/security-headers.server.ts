import { randomBytes } from 'node:crypto';

// Stripe's hosted pages: a form that posts to us may be answered with a redirect there, and
// Chromium applies form-action to the redirect target as well.
const STRIPE_FORM_TARGETS = 'https://checkout.stripe.com https://billing.stripe.com';

/** 128 random bits per document response: a nonce that an attacker cannot predict or reuse. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The policy for every HTML page. Scripts run only from our origin or with this response's nonce
 * (Remix's hydration data and scroll restoration are inline scripts), never `unsafe-inline`.
 * Styles come only from the stylesheet: no inline style attributes anywhere in the app, so
 * `unsafe-inline` is not needed for styles either. Event data never reaches any of these sinks
 * as markup; the policy is the second line of defence, not the first.
 */
export function createContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${STRIPE_FORM_TARGETS}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every dashboard response carries (documents and Remix's `.data` requests alike). */
export function applyBaseSecurityHeaders(headers: Headers): void {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
}
