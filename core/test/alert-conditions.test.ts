import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { globMatches, levelRank, logMatches, matchesFilter, type ConditionFacts } from '../src/alerts/conditions';
import { resolveRuleSettings } from '../src/alerts/rule-settings';
import { isAppError } from '../src/errors';

const facts: ConditionFacts = {
  environment: 'production',
  level: 'error',
  tags: { team: 'cart', region: 'eu' },
  release: 'shop@2.4.1',
  assigned: false,
};

describe('alert conditions (docs/alerts.md, "Conditions")', () => {
  test('an empty filter matches everything', () => {
    assert.equal(matchesFilter({}, facts), true);
  });

  test('each condition alone filters', () => {
    assert.equal(matchesFilter({ environments: ['staging', 'production'] }, facts), true);
    assert.equal(matchesFilter({ environments: ['staging'] }, facts), false);
    assert.equal(matchesFilter({ minLevel: 'error' }, facts), true);
    assert.equal(matchesFilter({ minLevel: 'fatal' }, facts), false);
    assert.equal(matchesFilter({ tags: [{ key: 'team', value: 'cart' }] }, facts), true);
    assert.equal(
      matchesFilter(
        {
          tags: [
            { key: 'team', value: 'cart' },
            { key: 'region', value: 'us' },
          ],
        },
        facts,
      ),
      false,
    );
    assert.equal(matchesFilter({ tags: [{ key: 'Team', value: 'cart' }] }, facts), false, 'keys are exact');
    assert.equal(matchesFilter({ release: 'shop@2.*' }, facts), true);
    assert.equal(matchesFilter({ release: 'shop@2.4.?' }, facts), true);
    assert.equal(matchesFilter({ release: 'shop@2' }, facts), false, 'the whole release must match');
    assert.equal(matchesFilter({ release: '*' }, { ...facts, release: null }), false, 'no release never matches');
    assert.equal(matchesFilter({ assigned: false }, facts), true);
    assert.equal(matchesFilter({ assigned: true }, facts), false);
  });

  test('levels: fatal > error > warning = warn > info > debug', () => {
    assert.ok(levelRank('fatal') > levelRank('error'));
    assert.ok(levelRank('error') > levelRank('warning'));
    assert.equal(levelRank('warning'), levelRank('warn'));
    assert.ok(levelRank('info') > levelRank('debug'));
    assert.equal(matchesFilter({ minLevel: 'warning' }, { ...facts, level: 'warn' }), true);
  });

  test('a glob is literal except * and ?', () => {
    assert.equal(globMatches('a.b', 'axb'), false, 'a dot is a dot');
    assert.equal(globMatches('v(1)+*', 'v(1)+rc'), true);
    assert.equal(globMatches('*', ''), true);
  });

  test('LOG_MATCH ignores case', () => {
    assert.equal(logMatches('payment failed', 'PAYMENT Failed for 7'), true);
    assert.equal(logMatches('payment failed', 'payment did fail'), false);
  });
});

describe('rule settings per kind', () => {
  const refused = (fn: () => unknown, message: RegExp) =>
    assert.throws(fn, (err: unknown) => isAppError(err) && err.code === 'BAD_USER_INPUT' && message.test(err.message));

  test('defaults: interval 30, no digest, empty filter', () => {
    assert.deepEqual(resolveRuleSettings('NEW_ISSUE', {}), {
      threshold: null,
      windowMinutes: null,
      query: null,
      filter: {},
      actionIntervalMinutes: 30,
      digestMinutes: null,
    });
  });

  test('counting kinds need threshold and window; LOG_MATCH a query; others refuse them', () => {
    refused(() => resolveRuleSettings('ISSUE_FREQUENCY', { windowMinutes: 5 }), /threshold: required/);
    refused(
      () => resolveRuleSettings('ERROR_SPIKE', { threshold: 0, windowMinutes: 5 }),
      /threshold: must be a whole number from 1/,
    );
    refused(() => resolveRuleSettings('USERS_AFFECTED', { threshold: 1, windowMinutes: 1441 }), /windowMinutes/);
    refused(() => resolveRuleSettings('LOG_MATCH', { query: '   ' }), /query: required/);
    refused(() => resolveRuleSettings('REGRESSED_ISSUE', { windowMinutes: 5 }), /windowMinutes: only for/);
    refused(() => resolveRuleSettings('LOG_MATCH', { query: 'x', filter: { assigned: false } }), /filter.assigned/);
    refused(() => resolveRuleSettings('NEW_ISSUE', { filter: { minLevel: 'loud' } }), /filter.minLevel: one of/);
    assert.equal(resolveRuleSettings('LOG_MATCH', { query: '  timeout ' }).query, 'timeout');
  });

  test('an update keeps what it does not give and re-checks the whole for the new kind', () => {
    const current = resolveRuleSettings('ISSUE_FREQUENCY', { threshold: 5, windowMinutes: 10, digestMinutes: 5 });
    const patched = resolveRuleSettings('ISSUE_FREQUENCY', { threshold: 7 }, current);
    assert.equal(patched.windowMinutes, 10);
    assert.equal(patched.digestMinutes, 5);
    const asNew = resolveRuleSettings('NEW_ISSUE', { digestMinutes: null }, patched);
    assert.deepEqual([asNew.threshold, asNew.windowMinutes, asNew.digestMinutes], [null, null, null]);
    assert.equal(
      resolveRuleSettings('NEW_ISSUE', { actionIntervalMinutes: null }, { ...asNew, actionIntervalMinutes: 5 })
        .actionIntervalMinutes,
      30,
    );
  });
});
