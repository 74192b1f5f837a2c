import DataLoader from 'dataloader';
import { findEventsByEventId, findIssuesInProjects, projectKeyOf, type Event, type Issue } from '@tracker/core';
import type { Context } from '../../context';

interface FeedbackLoaders {
  /** By (project, SDK event id): ids chosen by clients are unique only within a project. */
  event: DataLoader<{ projectId: string; eventId: string }, Event | null, string>;
  issue: DataLoader<{ projectId: string; issueId: string }, Issue | null, string>;
}

// Per request, kept beside the context rather than in the shared loaders.ts: only feedback uses them.
const perRequest = new WeakMap<Context, FeedbackLoaders>();

/** Batches a page's linked events and issues into one query each. */
export function feedbackLoaders(ctx: Context): FeedbackLoaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    loaders = {
      event: new DataLoader(
        async (keys) => {
          const found = await findEventsByEventId(ctx.ds, keys);
          return keys.map((k) => found.get(projectKeyOf(k.projectId, k.eventId)) ?? null);
        },
        { cacheKeyFn: (k) => projectKeyOf(k.projectId, k.eventId) },
      ),
      issue: new DataLoader(
        async (keys) => {
          const found = await findIssuesInProjects(ctx.ds, keys);
          return keys.map((k) => found.get(projectKeyOf(k.projectId, k.issueId)) ?? null);
        },
        { cacheKeyFn: (k) => projectKeyOf(k.projectId, k.issueId) },
      ),
    };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}
