import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  applyEvent,
  describeSnooze,
  OPEN_STATE,
  snooze,
  snoozeEndReason,
  type EventFacts,
  type LifecycleState,
} from '../src/lifecycle';

/** A fake clock: minutes after a fixed instant. */
const t = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, 0) + minutes * 60_000);
const event = (facts: Partial<EventFacts>): EventFacts => ({
  receivedAt: t(1),
  release: null,
  releaseRecord: null,
  projectHasReleases: false,
  ...facts,
});

/** Feeds events one by one (counts as the worker computes them) until the snooze ends. */
function eventsUntilEnd(
  state: LifecycleState,
  from: { events: number; users: number },
  newUser: (n: number) => boolean,
) {
  let s = state;
  let events = from.events;
  let users = from.users;
  for (let n = 1; n <= 10_000; n++) {
    events += 1;
    if (newUser(n)) users += 1;
    const out = applyEvent(s, event({ receivedAt: t(n), eventCount: events, userCount: users }));
    s = out.state;
    if (out.regressed) return { n, reason: out.reason, state: s };
  }
  return { n: -1, reason: undefined, state: s };
}

describe('snooze by time, duration, events and users (pure, with a held clock)', () => {
  test('until 100 more events: the 100th event after the snooze reopens it, the 99th does not', () => {
    const s = snooze(OPEN_STATE, { now: t(0), forEvents: 100, eventCount: 42, userCount: 3 });
    assert.equal(s.status, 'snoozed');
    assert.equal(s.snooze?.eventLimit, 142);
    assert.equal(s.snoozedUntil, null);
    const end = eventsUntilEnd(s, { events: 42, users: 3 }, () => false);
    assert.equal(end.n, 100);
    assert.equal(end.reason, '100 more events since snoozed');
    assert.equal(end.state.status, 'open');
    assert.equal(end.state.isRegression, true);
    assert.equal(end.state.snooze, null);
  });

  test('until 10 more users: events of users already counted do not end it; the 10th new user does', () => {
    const s = snooze(OPEN_STATE, { now: t(0), forUsers: 10, eventCount: 5, userCount: 2 });
    // Every third event brings a new user.
    const end = eventsUntilEnd(s, { events: 5, users: 2 }, (n) => n % 3 === 0);
    assert.equal(end.n, 30);
    assert.equal(end.reason, '10 more users since snoozed');
  });

  test('for 24 hours: an event before the end is counted, one at the end reopens it', () => {
    const s = snooze(OPEN_STATE, { now: t(0), minutes: 1440 });
    assert.deepEqual(s.snoozedUntil, t(1440));
    assert.equal(s.snooze?.kind, 'minutes');
    assert.equal(applyEvent(s, event({ receivedAt: t(1439) })).regressed, false);
    const out = applyEvent(s, event({ receivedAt: t(1440) }));
    assert.equal(out.regressed, true);
    assert.equal(out.reason, 'snoozed for 1 day, which has passed');
    assert.equal(describeSnooze(s), 'for 1 day');
  });

  test('until a date: the reason names the date', () => {
    const s = snooze(OPEN_STATE, { now: t(0), until: t(90) });
    assert.equal(s.snooze?.kind, 'until');
    assert.equal(snoozeEndReason(s, event({ receivedAt: t(89) })), null);
    assert.equal(
      snoozeEndReason(s, event({ receivedAt: t(91) })),
      'snoozed until 2026-11-01 13:30 UTC, which has passed',
    );
    assert.equal(describeSnooze(s), `until ${t(90).toISOString()}`);
  });

  test('a count snooze ignores time passing, and a time snooze ignores counts', () => {
    const byEvents = snooze(OPEN_STATE, { now: t(0), forEvents: 3, eventCount: 0 });
    assert.equal(applyEvent(byEvents, event({ receivedAt: t(100_000), eventCount: 2 })).regressed, false);
    const byTime = snooze(OPEN_STATE, { now: t(0), minutes: 60 });
    assert.equal(applyEvent(byTime, event({ receivedAt: t(30), eventCount: 1e6, userCount: 1e6 })).regressed, false);
  });

  test('exactly one condition, whole and within bounds; a resolved issue is refused', () => {
    assert.throws(() => snooze(OPEN_STATE, { now: t(0) }), /exactly one/);
    assert.throws(() => snooze(OPEN_STATE, { now: t(0), minutes: 5, forEvents: 5 }), /exactly one/);
    assert.throws(() => snooze(OPEN_STATE, { now: t(0), forEvents: 0 }), /forEvents: must be a whole number/);
    assert.throws(() => snooze(OPEN_STATE, { now: t(0), forUsers: 1.5 }), /forUsers/);
    assert.throws(() => snooze(OPEN_STATE, { now: t(0), minutes: -1 }), /minutes/);
    assert.throws(() => snooze(OPEN_STATE, { now: t(0), minutes: 10_000_000 }), /minutes/);
    assert.throws(() => snooze(OPEN_STATE, { now: t(10), until: t(10) }), /future/);
    const resolved: LifecycleState = { ...OPEN_STATE, status: 'resolved', resolvedAt: t(0) };
    assert.throws(() => snooze(resolved, { now: t(1), forEvents: 10 }), /reopen it first/);
  });

  test('describes each kind for the timeline', () => {
    assert.equal(describeSnooze(snooze(OPEN_STATE, { now: t(0), forEvents: 1 })), 'until 1 more event');
    assert.equal(describeSnooze(snooze(OPEN_STATE, { now: t(0), forUsers: 10 })), 'until 10 more users');
    assert.equal(describeSnooze(snooze(OPEN_STATE, { now: t(0), minutes: 90 })), 'for 90 minutes');
    assert.equal(describeSnooze(snooze(OPEN_STATE, { now: t(0), minutes: 120 })), 'for 2 hours');
  });

  test('a snooze stored before kinds existed (time only) still ends by time', () => {
    const legacy: LifecycleState = { ...OPEN_STATE, status: 'snoozed', snoozedUntil: t(10) };
    assert.equal(applyEvent(legacy, event({ receivedAt: t(5) })).regressed, false);
    assert.equal(applyEvent(legacy, event({ receivedAt: t(10) })).regressed, true);
  });
});
