/** An environment's failure counters and state, as the rules read them. */
export interface MonitorCounters {
  status: 'ok' | 'failing';
  consecutiveFailures: number;
  consecutiveSuccesses: number;
}

/** What one check-in (or check) did to the counters, and what the issue must do. */
export interface MonitorStep extends MonitorCounters {
  /** Open (or reopen) the monitor's issue: the failures reached the tolerance. */
  openIssue: boolean;
  /** Resolve it: the successes reached the recovery threshold. */
  resolveIssue: boolean;
}

/**
 * The failure rules (docs/monitors.md), as Sentry has them: `tolerance` consecutive failures
 * open the issue, then `recovery` consecutive successes resolve it. While failing, every
 * further failure asks for the issue open again (it may have been resolved by hand meanwhile);
 * a success in between resets the failure count only once the monitor has recovered.
 */
export function nextMonitorState(
  s: MonitorCounters,
  outcome: 'success' | 'failure',
  tolerance: number,
  recovery: number,
): MonitorStep {
  if (outcome === 'failure') {
    const failures = s.consecutiveFailures + 1;
    const failing = s.status === 'failing' || failures >= tolerance;
    return {
      status: failing ? 'failing' : 'ok',
      consecutiveFailures: failures,
      consecutiveSuccesses: 0,
      openIssue: failing,
      resolveIssue: false,
    };
  }
  const successes = s.consecutiveSuccesses + 1;
  if (s.status === 'failing') {
    const recovered = successes >= recovery;
    return {
      status: recovered ? 'ok' : 'failing',
      consecutiveFailures: recovered ? 0 : s.consecutiveFailures,
      consecutiveSuccesses: successes,
      openIssue: false,
      resolveIssue: recovered,
    };
  }
  return {
    status: 'ok',
    consecutiveFailures: 0,
    consecutiveSuccesses: successes,
    openIssue: false,
    resolveIssue: false,
  };
}
