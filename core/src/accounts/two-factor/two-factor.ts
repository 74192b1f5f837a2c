import type { DataSource, EntityManager } from 'typeorm';
import { recordAuditForMemberOrganizations } from '../../audit/record-audit';
import type { RequestOrigin } from '../../access/caller';
import { selfSource } from '../record-sign-in';
import { AppError } from '../../errors';
import { User } from '../../entities';
import { recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes';
import { enrolmentPicture, matchingStep, newTotpSecret, parseCode } from './totp';

/** The page's state for the signed-in user. */
export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(ds: DataSource, userId: string): Promise<TwoFactorStatus> {
  const user = await ds.manager.findOneByOrFail(User, { id: userId });
  return {
    enabled: !!user.totpSecret,
    enabledAt: user.totpEnabledAt,
    recoveryCodesLeft: user.totpSecret ? await recoveryCodesLeft(ds.manager, userId) : 0,
  };
}

/**
 * Step 1 of enrolment: a new secret, kept as pending until a code confirms the app has it. Asking
 * again replaces the pending secret (a reload of the page shows a new QR code).
 */
export async function startTwoFactorEnrolment(ds: DataSource, userId: string) {
  const user = await ds.manager.findOneByOrFail(User, { id: userId });
  if (user.totpSecret) throw new AppError('CONFLICT', 'Two-factor authentication is already on');
  const secret = newTotpSecret();
  await ds.manager.update(User, { id: userId }, { totpPendingSecret: secret });
  return enrolmentPicture(secret, user.email);
}

/**
 * Step 2: a code from the app turns two-factor on and answers 10 recovery codes, shown once. The
 * confirming code's step is remembered, so it cannot be used again to sign in.
 */
export async function confirmTwoFactorEnrolment(
  ds: DataSource,
  userId: string,
  rawCode: string,
  now: number,
  origin?: RequestOrigin,
): Promise<string[]> {
  const parsed = parseCode('code', rawCode);
  if (parsed.kind !== 'totp')
    throw new AppError('BAD_USER_INPUT', 'code: enter the 6-digit code from your authenticator app');
  return ds.transaction(async (em) => {
    const user = await em.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
    if (user.totpSecret) throw new AppError('CONFLICT', 'Two-factor authentication is already on');
    if (!user.totpPendingSecret) throw new AppError('CONFLICT', 'Start the enrolment first: no secret is pending');
    const step = matchingStep(user.totpPendingSecret, parsed.code, now);
    if (step === null)
      throw new AppError('BAD_USER_INPUT', 'code: wrong code; check the time on your phone and try the next one');
    await em.update(
      User,
      { id: userId },
      {
        totpSecret: user.totpPendingSecret,
        totpPendingSecret: null,
        totpEnabledAt: new Date(now),
        totpLastStep: String(step),
      },
    );
    await recordAuditForMemberOrganizations(em, userId, {
      ...selfSource(userId, origin),
      action: 'auth.two_factor_enrolled',
      target: { type: 'user', id: userId, label: user.email },
    });
    return replaceRecoveryCodes(em, userId);
  });
}

/**
 * Checks a 6-digit code or a recovery code of a user with two-factor on. A TOTP code is accepted
 * once: its step must be later than the last accepted one (compare-and-set, so two requests
 * racing with one code cannot both pass). A recovery code is used up. Answers whether it passed.
 */
export async function checkSecondFactor(
  em: EntityManager,
  user: User,
  rawCode: string,
  now: number,
): Promise<{ ok: boolean; kind: 'totp' | 'recovery' }> {
  const parsed = parseCode('code', rawCode);
  if (!user.totpSecret) throw new AppError('CONFLICT', 'Two-factor authentication is off for this account');
  if (parsed.kind === 'recovery') {
    return { ok: await useRecoveryCode(em, user.id, parsed.code, new Date(now)), kind: 'recovery' };
  }
  const step = matchingStep(user.totpSecret, parsed.code, now);
  if (step === null) return { ok: false, kind: 'totp' };
  const rows = (await em.query(
    `WITH u AS (UPDATE users SET totp_last_step = $2
                 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id)
     SELECT id FROM u`,
    [user.id, step],
  )) as unknown[];
  return { ok: rows.length > 0, kind: 'totp' };
}

/** Turns two-factor off after a current code or a recovery code (wrong: BAD_USER_INPUT). */
export async function disableTwoFactor(
  ds: DataSource,
  userId: string,
  rawCode: string,
  now: number,
  origin?: RequestOrigin,
): Promise<void> {
  parseCode('code', rawCode);
  await ds.transaction(async (em) => {
    const user = await em.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first');
    if (!user.totpSecret) throw new AppError('CONFLICT', 'Two-factor authentication is already off');
    const { ok } = await checkSecondFactor(em, user, rawCode, now);
    if (!ok) throw new AppError('BAD_USER_INPUT', 'code: wrong or already used code');
    await em.update(
      User,
      { id: userId },
      { totpSecret: null, totpEnabledAt: null, totpLastStep: null, totpPendingSecret: null },
    );
    await em.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    await recordAuditForMemberOrganizations(em, userId, {
      ...selfSource(userId, origin),
      action: 'auth.two_factor_disabled',
      target: { type: 'user', id: userId, label: user.email },
      changes: { after: { by: 'user' } },
    });
  });
}

/** New recovery codes (the old ones stop working), after a current code. */
export async function regenerateRecoveryCodes(ds: DataSource, userId: string, rawCode: string, now: number) {
  parseCode('code', rawCode);
  return ds.transaction(async (em) => {
    const user = await em.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user?.totpSecret) throw new AppError('CONFLICT', 'Two-factor authentication is off for this account');
    const { ok } = await checkSecondFactor(em, user, rawCode, now);
    if (!ok) throw new AppError('BAD_USER_INPUT', 'code: wrong or already used code');
    return replaceRecoveryCodes(em, userId);
  });
}

/**
 * The operator's way back for a person who lost both the phone and the recovery codes
 * (`user:disable-two-factor`): the operator checks who is asking, outside Tracker.
 */
export async function operatorDisableTwoFactor(ds: DataSource, email: string): Promise<User | null> {
  const user = await ds.manager.findOneBy(User, { email: email.trim().toLowerCase() });
  if (!user) return null;
  await ds.transaction(async (em) => {
    await em.update(
      User,
      { id: user.id },
      { totpSecret: null, totpEnabledAt: null, totpLastStep: null, totpPendingSecret: null },
    );
    await em.query('DELETE FROM recovery_codes WHERE user_id = $1', [user.id]);
    await recordAuditForMemberOrganizations(em, user.id, {
      actor: { type: 'system', name: 'operator' },
      action: 'auth.two_factor_disabled',
      target: { type: 'user', id: user.id, label: user.email },
      changes: { after: { by: 'operator' } },
    });
  });
  return user;
}
