import { AppError, describeZodError } from '@tracker/core';
import type { z } from 'zod';

/** A JSON object body checked against `schema`, or a 400 naming the first bad field. */
export function parseBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('BAD_USER_INPUT', 'body: must be a JSON object');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new AppError('BAD_USER_INPUT', describeZodError(parsed.error));
  return parsed.data;
}
