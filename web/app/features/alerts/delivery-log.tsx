import { RelativeTime } from '../../components/time';
import { formatDateTime } from '../../lib/format';
import { visibleText } from '../../lib/visible-text';

export type Delivery = {
  id: string;
  kind: string;
  status: 'PENDING' | 'SENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  lastError: string | null;
  lastStatus: number | null;
  response?: string | null;
  test?: boolean;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
};

/** "HTTP 200" for a web receiver, the SMTP reply code for email (its reply text says which). */
function statusLabel(status: number | null, channelType: string): string | null {
  if (status == null) return null;
  return channelType === 'EMAIL' ? `SMTP ${status}` : `HTTP ${status}`;
}

/**
 * What the receiver answered: the status, then the error in users' words and the start of the
 * answer's body (the API gives the body to owners and admins only, and never for a receiver on a
 * private address). All of it is the receiver's text: React text only, bidi controls made visible.
 */
export function ReceiverAnswer({ delivery, channelType }: { delivery: Delivery; channelType: string }) {
  const status = statusLabel(delivery.lastStatus, channelType);
  return (
    <>
      {status && <span className="mono">{status}</span>}
      {delivery.lastError ? (
        <>
          <span className="break"> {visibleText(delivery.lastError)}</span>
          {delivery.response && <span className="mono break"> {visibleText(delivery.response)}</span>}
        </>
      ) : delivery.response ? (
        <span className="mono break"> {visibleText(delivery.response)}</span>
      ) : delivery.deliveredAt ? (
        <span> delivered</span>
      ) : !status ? (
        <span>—</span>
      ) : null}
    </>
  );
}

/** The answer to "Send test notification", shown under the rule it was sent for. */
export function TestResult({ delivery, channelType }: { delivery: Delivery; channelType: string }) {
  const ok = delivery.status === 'DELIVERED';
  return (
    <div className={ok ? 'notice' : 'form-error'} role="status" data-testid="test-result">
      <strong>{ok ? 'Test notification delivered.' : 'Test notification failed.'}</strong>{' '}
      <ReceiverAnswer delivery={delivery} channelType={channelType} />
    </div>
  );
}

/** The warning on a rule whose recent deliveries fail. */
export function FailingWarning({ recentFailures }: { recentFailures: number }) {
  return (
    <p className="form-error" role="alert">
      Deliveries to this channel are failing
      {recentFailures > 0 ? ` (${recentFailures} in the last 24 hours)` : ''}. Check the address and the receiver, then
      send a test notification.
    </p>
  );
}

/** The rule's latest deliveries, newest first. */
export function DeliveryLog({
  deliveries,
  channelType,
  now,
}: {
  deliveries: Delivery[];
  channelType: string;
  now: string;
}) {
  if (deliveries.length === 0) return <p className="muted">Nothing sent yet.</p>;
  return (
    <div className="table-scroll" tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">Latest deliveries of this rule</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Last answer</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td>
                <RelativeTime iso={d.createdAt} now={now} />
                {d.test && <span className="tag"> test</span>}
              </td>
              <td>
                <span className={`delivery delivery-${d.status.toLowerCase()}`}>{d.status.toLowerCase()}</span>
                {d.nextAttemptAt && d.status === 'PENDING' && (
                  <span className="muted"> · retry {formatDateTime(d.nextAttemptAt)}</span>
                )}
              </td>
              <td className="num">{d.attempts}</td>
              <td className="break">
                <ReceiverAnswer delivery={d} channelType={channelType} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
