import { snoozeEndReason, type EventFacts, type LifecycleState } from './lifecycle';

/** Why an event reopened an issue: the timeline's sentence and its details. */
export interface RegressionReason {
  message: string;
  data: Record<string, unknown>;
}

/** `2026-11-25 12:03 UTC`: the server does not know the reader's zone; `data` has the ISO time. */
export function formatUtcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The sentence for a regression, in the words of the lifecycle table
 * (docs/releases-and-lifecycle.md): which event, which release, when deployed and where, and what
 * the issue had been resolved in. `before` is the state the event found; the caller has already
 * decided (applyEvent) that it regressed.
 */
export function regressionReason(
  before: LifecycleState,
  event: EventFacts & { environment: string },
): RegressionReason {
  const record = event.releaseRecord;
  const data: Record<string, unknown> = {
    release: event.release,
    environment: event.environment,
    receivedAt: event.receivedAt.toISOString(),
    resolvedIn: before.resolvedIn?.version ?? null,
    resolvedAt: before.resolvedAt?.toISOString() ?? null,
    deployedAt: record?.deployedAt.toISOString() ?? null,
  };
  if (before.status === 'snoozed') {
    // Why it ended, by the snooze's kind: "100 more events since snoozed", "snoozed for 1 day, which has passed".
    const why = snoozeEndReason(before, event) ?? 'the snooze ended';
    return {
      message: why,
      data: {
        ...data,
        reason: 'snooze-ended',
        why,
        snoozeKind: before.snooze?.kind ?? 'until',
        snoozedUntil: before.snoozedUntil?.toISOString() ?? null,
        forEvents: before.snooze?.forEvents ?? null,
        forUsers: before.snooze?.forUsers ?? null,
      },
    };
  }
  if (!event.projectHasReleases) {
    return {
      message: `new event after it was resolved${
        before.resolvedAt ? ` at ${formatUtcMinute(before.resolvedAt)}` : ''
      } (the project records no releases)`,
      data: { ...data, reason: 'no-releases' },
    };
  }
  const where = record
    ? `event in release ${record.version}, deployed ${formatUtcMinute(record.deployedAt)} to ${record.environment}`
    : `event in release ${event.release ?? '(none)'}`;
  const after = before.resolvedIn
    ? `after resolved in ${before.resolvedIn.version}`
    : `after resolved at ${before.resolvedAt ? formatUtcMinute(before.resolvedAt) : 'an unknown time'} (no release then)`;
  return {
    message: `${where}, ${after}`,
    data: { ...data, reason: before.resolvedIn ? 'newer-release' : 'release-after-resolution' },
  };
}
