import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  applyEvent,
  OPEN_STATE,
  reopen,
  resolve,
  snooze,
  type EventFacts,
  type LifecycleState,
  type ReleaseRecord,
} from '../src/lifecycle';

const t = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));
const rel = (version: string, deployedMin: number, environment = 'production'): ReleaseRecord => ({
  id: `${version}/${environment}`,
  version,
  environment,
  deployedAt: t(deployedMin),
});
const event = (facts: Partial<EventFacts>): EventFacts => ({
  receivedAt: t(30),
  release: null,
  releaseRecord: null,
  projectHasReleases: true,
  ...facts,
});
const resolvedIn = (r: ReleaseRecord | null, at = 10): LifecycleState =>
  resolve(OPEN_STATE, { now: t(at), newestRelease: r });

// The pure rules; the same rows run end to end through ingest and the worker in server/test/lifecycle.test.ts.
describe('issue lifecycle (docs/releases-and-lifecycle.md) as pure functions', () => {
  test('resolve records the newest release (or none) and the time; resolving again changes nothing', () => {
    const s = resolvedIn(rel('1.0', 5));
    assert.equal(s.status, 'resolved');
    assert.equal(s.resolvedIn?.version, '1.0');
    assert.deepEqual(s.resolvedAt, t(10));
    assert.equal(resolve(s, { now: t(20), newestRelease: rel('2.0', 15) }), s);
    assert.equal(resolvedIn(null).resolvedIn, null);
  });

  test('resolved, no release records in the project: any event regresses', () => {
    const out = applyEvent(resolvedIn(null), event({ projectHasReleases: false, release: '9.9' }));
    assert.equal(out.regressed, true);
    assert.equal(out.state.status, 'open');
    assert.equal(out.state.isRegression, true);
  });

  test('resolved in R: a different release registered for the environment and deployed later regresses', () => {
    const out = applyEvent(resolvedIn(rel('1.0', 5)), event({ release: '1.1', releaseRecord: rel('1.1', 20) }));
    assert.equal(out.regressed, true);
  });

  test('resolved in R: the same release, no release, an unregistered one, or an earlier deploy stays resolved', () => {
    const s = resolvedIn(rel('1.0', 5));
    for (const facts of [
      event({ release: '1.0', releaseRecord: rel('1.0', 5) }),
      event({ release: null }),
      event({ release: '7.7', releaseRecord: null }),
      event({ release: '0.9', releaseRecord: rel('0.9', 1) }),
    ]) {
      const out = applyEvent(s, facts);
      assert.equal(out.regressed, false);
      assert.equal(out.state, s);
    }
  });

  test('a re-registration that bumps the resolved-in release is compared live', () => {
    // Resolved in 1.0 (deployed at 5); 1.0 is redeployed at 25; 1.1 was deployed at 20: not later.
    const s = resolvedIn(rel('1.0', 25));
    assert.equal(applyEvent(s, event({ release: '1.1', releaseRecord: rel('1.1', 20) })).regressed, false);
  });

  test('resolved with no release, the project has releases now: a release deployed after the resolution regresses', () => {
    const s = resolvedIn(null, 10);
    assert.equal(applyEvent(s, event({ release: '1.0', releaseRecord: rel('1.0', 11) })).regressed, true);
    assert.equal(applyEvent(s, event({ release: '1.0', releaseRecord: rel('1.0', 9) })).regressed, false);
    assert.equal(applyEvent(s, event({ release: null })).regressed, false);
  });

  test('snoozed: an event after the snooze ends reopens as a regression; before, it is only counted', () => {
    const s = snooze(OPEN_STATE, { now: t(0), until: t(20) });
    assert.equal(s.status, 'snoozed');
    assert.equal(applyEvent(s, event({ receivedAt: t(19) })).regressed, false);
    const out = applyEvent(s, event({ receivedAt: t(20) }));
    assert.equal(out.regressed, true);
    assert.equal(out.state.status, 'open');
  });

  test('open issues stay open; snooze needs a future time and an unresolved issue; reopen is not a regression', () => {
    assert.equal(applyEvent(OPEN_STATE, event({})).regressed, false);
    assert.throws(() => snooze(OPEN_STATE, { now: t(10), until: t(5) }), /future/);
    assert.throws(() => snooze(resolvedIn(null), { now: t(10), until: t(50) }), /reopen it first/);
    const reopened = reopen(resolvedIn(rel('1.0', 5)));
    assert.equal(reopened.status, 'open');
    assert.equal(reopened.isRegression, false);
    assert.equal(reopened.resolvedIn, null);
  });
});
