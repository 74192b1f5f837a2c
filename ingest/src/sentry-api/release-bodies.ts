import { AppError, type ReleaseCommit, type ReleaseSummary, type UploadTokenScope } from '@tracker/core';
import { z } from 'zod';
import { versionField } from '../http/uploads.route';
import { parseBody } from '../http/parse-body';

/** Messages longer than this are cut (a commit message is evidence, not storage). */
const MAX_MESSAGE_CHARS = 10_000;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/** An ISO 8601 time with an offset, as sentry-cli serializes chrono's DateTime. */
const time = z
  .string()
  .max(64)
  .transform((v, ctx) => {
    const t = new Date(v);
    if (Number.isNaN(t.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 time' });
      return z.NEVER;
    }
    return t;
  });

const projectRef = z.union([z.string().min(1).max(200), z.number().int()]);

/** `GitCommit` of sentry-cli (`--local`): the changed paths in `patch_set`. */
const commitSchema = z.object({
  id: text(200).min(1, 'must not be empty'),
  repository: text(200).nullish(),
  author_name: text(512).nullish(),
  author_email: text(512).nullish(),
  message: z.string().nullish(),
  timestamp: time.nullish(),
  patch_set: z.array(z.object({ path: text(1024).min(1), type: text(16).nullish() })).nullish(),
});

/** A repository head (`--commit repo@from..to` or `--auto`). */
const refSchema = z.object({
  repository: text(200).min(1),
  commit: text(200).min(1),
  previousCommit: text(200).nullish(),
});

const releaseChanges = {
  url: text(2048).nullish(),
  dateStarted: time.nullish(),
  dateReleased: time.nullish(),
  refs: z.array(refSchema).nullish(),
  commits: z.array(commitSchema).nullish(),
  projects: z.array(projectRef).nullish(),
  status: z.enum(['open', 'archived']).nullish(),
};

export const newReleaseSchema = z.object({ version: versionField, ...releaseChanges });
export const updateReleaseSchema = z.object(releaseChanges);
export const deploySchema = z.object({
  environment: text(64).trim().min(1, 'must not be empty'),
  name: text(200).nullish(),
  url: text(2048).nullish(),
  dateStarted: time.nullish(),
  dateFinished: time.nullish(),
  projects: z.array(projectRef).nullish(),
});

export type ReleaseChanges = z.output<typeof updateReleaseSchema>;

/** The body checked, or a 400 naming the first bad field (`{"detail"}` through the scope's handler). */
export function parseSentryBody<T extends z.ZodTypeAny>(schema: T, body: unknown): z.output<T> {
  return parseBody(schema, body);
}

/** Commits to store from a body's `commits` (with files) or `refs` (heads only); undefined when neither was sent. */
export function commitsOf(body: ReleaseChanges): ReleaseCommit[] | undefined {
  if (body.commits) {
    return body.commits.map((c) => ({
      id: c.id,
      repository: c.repository ?? '',
      authorName: c.author_name ?? null,
      authorEmail: c.author_email ?? null,
      message: c.message == null ? null : c.message.replace(/\u0000/g, '').slice(0, MAX_MESSAGE_CHARS),
      timestamp: c.timestamp ?? null,
      files: [...new Set((c.patch_set ?? []).map((p) => p.path))],
    }));
  }
  if (body.refs) {
    return body.refs.map((r) => ({
      id: r.commit,
      repository: r.repository,
      authorName: null,
      authorEmail: null,
      message: null,
      timestamp: null,
      files: [],
    }));
  }
  return undefined;
}

/** Projects named in a body must all be the token's project (403 otherwise); `required` on the org route. */
export function requireProjects(projects: unknown[] | null | undefined, required: boolean): void {
  if (required && (!projects || projects.length === 0)) {
    throw new AppError('BAD_USER_INPUT', 'projects: must name the project of the token');
  }
}

/** The release as sentry-cli's `ReleaseInfo` reads it. */
export function releaseJson(r: ReleaseSummary, token: UploadTokenScope): Record<string, unknown> {
  return {
    version: r.version,
    shortVersion: r.version,
    ref: null,
    url: r.url,
    status: 'open',
    dateCreated: r.dateCreated.toISOString(),
    dateReleased: r.dateReleased?.toISOString() ?? null,
    lastEvent: null,
    newGroups: 0,
    commitCount: r.commitCount,
    lastCommit: r.lastCommit,
    deployCount: r.environments.length,
    environments: r.environments,
    projects: [{ id: String(token.project.number), slug: token.project.slug, name: token.project.name }],
  };
}
