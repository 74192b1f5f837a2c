import { AppError } from '@tracker/core';
import { z } from 'zod';

/** A release version as `/ingest/release` takes it: 1–200 characters, no control characters. */
export const versionText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .refine((v) => !/[\u0000-\u001f]/.test(v), 'must not contain control characters');

/** The `:version` of a path, checked like a body's `version` (400 naming it otherwise). */
export function parseVersion(raw: string | undefined): string {
  const parsed = versionText.safeParse(raw ?? '');
  if (!parsed.success) throw new AppError('BAD_USER_INPUT', `version: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}
