import { Form, Link } from '@remix-run/react';
import { Section } from '../settings/settings-section';

type TwoFactorSectionProps = {
  required: boolean;
  isOwner: boolean;
  /** Whether the viewer has two-factor on: an owner without it cannot require it (they would be locked out). */
  viewerHasTwoFactor: boolean;
  /** Members without two-factor, who must enrol at their next request once it is required. */
  membersWithout: number;
  busy: boolean;
};

/** "Require two-factor" (owners switch it; everyone sees whether it is on). */
export function TwoFactorSection({
  required,
  isOwner,
  viewerHasTwoFactor,
  membersWithout,
  busy,
}: TwoFactorSectionProps) {
  const canTurnOn = required || viewerHasTwoFactor;
  return (
    <Section id="org-two-factor-heading" title="Two-factor authentication">
      <p>
        {required
          ? 'Required: members without two-factor must set it up before they see this organization.'
          : 'Not required: members choose for themselves.'}{' '}
        {membersWithout > 0 && `${membersWithout} member${membersWithout === 1 ? ' has' : 's have'} it off.`}
      </p>
      {isOwner ? (
        <Form method="post" className="form form-inline">
          <input type="hidden" name="required" value={required ? 'false' : 'true'} />
          <button
            type="submit"
            name="intent"
            value="setRequireTwoFactor"
            className={required ? 'button' : 'button button-primary'}
            disabled={busy || !canTurnOn}
            aria-describedby={canTurnOn ? undefined : 'two-factor-first'}
          >
            {required ? 'Stop requiring two-factor' : 'Require two-factor'}
          </button>
          {!canTurnOn && (
            <p id="two-factor-first" className="muted">
              Turn on <Link to="/account/two-factor">two-factor for your own account</Link> first.
            </p>
          )}
        </Form>
      ) : (
        <p className="muted">Only owners can change this.</p>
      )}
      <p className="muted">API tokens are not affected: review them when you turn this on.</p>
    </Section>
  );
}
