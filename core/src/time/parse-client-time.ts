import { AppError } from '../errors';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The one reader of times sent by clients (GraphQL arguments): an ISO 8601 date-time, or with
 * `allowDate` also a bare date (midnight UTC, for day filters), else BAD_USER_INPUT naming the
 * field. Numbers and free text are refused rather than guessed: `Date` reads "1/2/2026" and
 * "2026" in ways no user means.
 */
export function parseClientTime(field: string, value: string, options: { allowDate?: boolean } = {}): Date {
  const time = new Date(value);
  const shaped = DATE_TIME.test(value) || (options.allowDate === true && DATE.test(value));
  if (!shaped || Number.isNaN(time.getTime())) {
    const what = options.allowDate ? 'an ISO 8601 date or date-time' : 'an ISO 8601 date-time';
    throw new AppError('BAD_USER_INPUT', `${field}: must be ${what}`);
  }
  return time;
}
