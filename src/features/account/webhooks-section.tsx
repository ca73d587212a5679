import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, errorLines, errorText } from '../../api/errors.ts';
import { listWebhooks, registerWebhook, removeWebhook, type Webhook } from '../../api/webhooks.ts';
import { newId } from '../../client-rules/ids.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { WebhookDeliveryLog } from './webhook-delivery-log.tsx';
import './account-extras.css';

/**
 * PARTNER WEBHOOKS: URLs of the photographer's own systems (a gallery, a CRM) that the lab POSTs a
 * signed event to at each step of their orders. The signing secret is shown once, right after
 * the URL is added; the list shows only its last characters.
 */
export function WebhooksSection() {
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One Idempotency-Key per URL being added, kept while no answer came: a second press then gets
  // the webhook the first one may have made, not another. Any answer ends it (a refusal such as
  // "at most 5" must be asked afresh once a webhook is removed, not replayed).
  const registration = useRef<{ url: string; key: string } | null>(null);
  // Set before React re-renders the button disabled: a second press in the same moment does nothing.
  const adding = useRef(false);

  const reload = useCallback(() => listWebhooks().then((a) => setWebhooks(a.data), (err: unknown) => toast.error(errorLines(err))), []);
  useEffect(() => void reload(), [reload]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (adding.current) return;
    adding.current = true;
    setBusy(true);
    setUrlError(null);
    const typed = url.trim();
    if (registration.current?.url !== typed) registration.current = { url: typed, key: newId() };
    try {
      const made = (await registerWebhook(typed, registration.current.key)).data;
      registration.current = null;
      setSecret({ url: made.url, secret: made.secret });
      setUrl('');
      await reload();
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === 'network')) registration.current = null;
      // The typed URL stays, with what is wrong with it beside the field.
      setUrlError(err instanceof ApiError && err.status === 422 ? err.message : errorText(err));
    } finally {
      adding.current = false;
      setBusy(false);
    }
  };

  const remove = async (w: Webhook) => {
    setBusy(true);
    try {
      await removeWebhook(w.guid);
      toast.success(`Nothing more is sent to ${w.url}.`);
      await reload();
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="webhooks">
      <h2 id="webhooks">PARTNER WEBHOOKS</h2>
      <p className="muted">
        The lab POSTs a signed JSON event to each URL here when one of your orders is accepted, printing, shipped, cancelled or refunded.
      </p>
      {secret && (
        <div className="webhook-secret" role="status">
          <p>
            Signing secret for {secret.url}: <code>{secret.secret}</code>
          </p>
          <p>Copy it now: it is not shown again. Check each event's webhook-signature with it.</p>
          <button type="button" className="button" onClick={() => setSecret(null)}>
            DONE
          </button>
        </div>
      )}
      {webhooks === null ? (
        <p role="status">loading</p>
      ) : webhooks.length === 0 ? (
        <p className="muted">No webhooks yet.</p>
      ) : (
        <ul className="webhook-list" aria-label="Your webhooks">
          {webhooks.map((w) => (
            <li key={w.guid}>
              <span className="webhook-url">{w.url}</span> <span className="muted">secret {w.secret_hint}</span>{' '}
              <button type="button" className="button" aria-expanded={open === w.guid} aria-label={`DELIVERIES ${w.url}`} onClick={() => setOpen(open === w.guid ? null : w.guid)}>
                DELIVERIES
              </button>{' '}
              <button type="button" className="button" disabled={busy} aria-label={`REMOVE ${w.url}`} onClick={() => void remove(w)}>
                REMOVE
              </button>
              {open === w.guid && <WebhookDeliveryLog webhook={w} />}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => void add(e)} noValidate>
        <label htmlFor="webhook-url">Webhook URL</label>
        <input id="webhook-url" type="url" inputMode="url" placeholder="https://example.com/lab-events" value={url} aria-invalid={urlError ? true : undefined} aria-describedby={urlError ? 'webhook-url-error' : undefined} onChange={(e) => setUrl(e.target.value)} />
        {urlError && (
          <p id="webhook-url-error" className="field-error" role="alert">
            {urlError}
          </p>
        )}
        <button type="submit" className="button primary" disabled={busy || !url.trim()}>
          ADD WEBHOOK
        </button>
      </form>
    </section>
  );
}
