import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { errorLines } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { updateNewUser } from '../../api/signup.ts';
import { uploadCertificate } from '../../api/uploads.ts';
import { ROUTES } from '../../app/routes.ts';
import { CERTIFICATE_NOT_PDF, isPdfFile } from '../../domain/validation.ts';
import { FormFailure } from './form-failure.tsx';
import { ErrorLines } from '../../ui/error-lines.tsx';


/** /signup/3-of-3: 'Is your business located in Tennessee?' with the certificate when YES. */
export function SignupStep3Screen() {
  const navigate = useNavigate();
  const guid = useSession((s) => s.session?.guid ?? '');
  const [inTennessee, setInTennessee] = useState<'YES' | 'NO'>('YES');
  const [file, setFile] = useState<File | null>(null);
  const [uploadErrors, setUploadErrors] = useState<string[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const ready = inTennessee === 'NO' || file !== null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setFailure(null);
    setUploadErrors([]);
    try {
      if (inTennessee === 'YES' && file) {
        try {
          await uploadCertificate(guid, file);
        } catch (err) {
          setUploadErrors(errorLines(err));
          setBusy(false);
          return;
        }
      }
      await updateNewUser({ tn_business: inTennessee === 'YES' });
      void navigate(ROUTES.signupConfirmation);
    } catch (err) {
      setFailure(err);
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={(e) => void onSubmit(e)}>
        <p className="step-marker">
          1 • 2 • <strong>3</strong>
        </p>
        <h1>Is your business located in Tennessee?</h1>
        <label>
          Business in Tennessee
          <select value={inTennessee} onChange={(e) => setInTennessee(e.target.value as 'YES' | 'NO')}>
            <option value="YES">YES</option>
            <option value="NO">NO</option>
          </select>
        </label>
        {inTennessee === 'YES' ? (
          <>
            <p className="muted">Tennessee businesses need a blanket certificate of resale on file before ordering.</p>
            <label>
              Blanket certificate of resale (PDF)
              <input
                type="file"
                accept="application/pdf,.pdf"
                onChange={(e) => {
                  const chosen = e.target.files?.[0] ?? null;
                  setUploadErrors(chosen && !isPdfFile(chosen) ? [CERTIFICATE_NOT_PDF] : []);
                  setFile(chosen && isPdfFile(chosen) ? chosen : null);
                }}
              />
            </label>
          </>
        ) : null}
        <ErrorLines title="Errors while uploading:" lines={uploadErrors} />
        {failure ? <FormFailure error={failure} /> : null}
        <button type="submit" className="button primary" disabled={!ready || busy}>
          {busy ? 'SUBMITTING...' : 'SUBMIT APPLICATION'}
        </button>
      </form>
    </main>
  );
}
