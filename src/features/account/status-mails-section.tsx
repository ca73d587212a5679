import { useEffect, useState } from 'react';
import { errorLines } from '../../api/errors.ts';
import { getStatusMails, setStatusMail } from '../../api/status-mails.ts';
import { STATUS_MAIL_LABELS, STATUS_MAIL_STEPS, type StatusMailStep } from '../../domain/status-mails.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import './account-extras.css';

/** ORDER MAILS: one switch per mail the lab sends as an order moves. */
export function StatusMailsSection() {
  const [on, setOn] = useState<Record<StatusMailStep, boolean> | null>(null);
  const [busy, setBusy] = useState<StatusMailStep | null>(null);

  useEffect(() => {
    getStatusMails().then((a) => setOn(a.data), (err: unknown) => toast.error(errorLines(err)));
  }, []);

  // The box shows the choice at once; the lab's answer confirms it, a failure puts it back.
  const flip = async (step: StatusMailStep, value: boolean) => {
    setBusy(step);
    setOn((current) => (current ? { ...current, [step]: value } : current));
    try {
      setOn((await setStatusMail(step, value)).data);
    } catch (err) {
      setOn((current) => (current ? { ...current, [step]: !value } : current));
      toast.error(errorLines(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="account-section" aria-labelledby="status-mails">
      <h2 id="status-mails">ORDER MAILS</h2>
      <p className="muted">The lab mails you at each step of an order. Untick a mail you do not want.</p>
      {on === null ? (
        <p role="status">loading</p>
      ) : (
        <fieldset className="status-mails">
          <legend className="visually-hidden">Mails you get</legend>
          {STATUS_MAIL_STEPS.map((step) => (
            <label key={step} className="checkbox">
              <input type="checkbox" checked={on[step]} aria-busy={busy === step} onChange={(e) => void flip(step, e.target.checked)} /> {STATUS_MAIL_LABELS[step]}
            </label>
          ))}
        </fieldset>
      )}
    </section>
  );
}
