import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { AppError } from '../../errors';

/** RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30 s steps. */
export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
/** Codes of the step before and after are accepted too (clock drift, typing time). */
const WINDOW = 1;

function totpOf(secretBase32: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'Tracker',
    label: email,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: TOTP_PERIOD_S,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** A fresh 160-bit secret (RFC 4226's recommended size), base32 as apps type it in. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/** What the enrolment page shows: the secret, the `otpauth://` URI and it as a QR code (SVG data URL). */
export async function enrolmentPicture(secretBase32: string, email: string) {
  const uri = totpOf(secretBase32, email).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    secret: secretBase32,
    uri,
    qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/** The 30-second step a time falls in. */
export const stepAt = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_PERIOD_S);

/** The step whose code `code` is (within ±1 of now), or null when it is wrong. */
export function matchingStep(secretBase32: string, code: string, nowMs: number): number | null {
  const delta = totpOf(secretBase32, 'x').validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : stepAt(nowMs) + delta;
}

/** A current code (tests, and nothing else: the server never needs to make one). */
export function totpCodeAt(secretBase32: string, nowMs: number): string {
  return totpOf(secretBase32, 'x').generate({ timestamp: nowMs });
}

export type ParsedCode = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

const RECOVERY = /^[a-z2-7]{10}$/;

/**
 * A code as typed: 6 digits, or a recovery code (10 characters, dashes and spaces ignored).
 * Anything else (5 or 7 digits, letters outside base32) is refused before any check, so it
 * counts as no attempt and changes nothing.
 */
export function parseCode(field: string, raw: string): ParsedCode {
  const s = String(raw ?? '').trim();
  if (/^\d{6}$/.test(s)) return { kind: 'totp', code: s };
  const compact = s.replace(/[\s-]+/g, '').toLowerCase();
  if (s.length <= 40 && !/^\d+$/.test(compact) && RECOVERY.test(compact)) return { kind: 'recovery', code: compact };
  throw new AppError(
    'BAD_USER_INPUT',
    `${field}: enter the 6-digit code from your authenticator app, or a recovery code (xxxxx-xxxxx)`,
  );
}
