import { useState } from 'react';
import { getProfile, type Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { uploadCertificate } from '../../api/uploads.ts';
import { CERTIFICATE_NOT_PDF, isPdfFile } from '../../domain/validation.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';

/** BLANKET CERTIFICATE OF RESALE: PDF upload through a signed address, and download. */
export function CertificateSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const link = profile.user.blanket_certificate_of_resale_link;

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setErrors([]);
    try {
      await uploadCertificate(profile.user.guid, file);
      onSaved(await getProfile());
      setFile(null);
    } catch (err) {
      setErrors(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="certificate">
      <h2 id="certificate">BLANKET CERTIFICATE OF RESALE</h2>
      {link ? (
        <p>
          A certificate is on file. <a href={link}>DOWNLOAD CERTIFICATE</a>
        </p>
      ) : (
        <p className="muted">No certificate on file. Businesses in Tennessee need one before ordering.</p>
      )}
      <div className="field-grid">
        <label>
          Certificate (PDF)
          <input
            type="file"
            accept="application/pdf,.pdf"
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null;
              setErrors(chosen && !isPdfFile(chosen) ? [CERTIFICATE_NOT_PDF] : []);
              setFile(chosen && isPdfFile(chosen) ? chosen : null);
            }}
          />
        </label>
        <button type="button" className="button primary" disabled={!file || busy} onClick={() => void upload()}>
          UPLOAD CERTIFICATE
        </button>
      </div>
      <ErrorLines title="Errors while uploading:" lines={errors} />
    </section>
  );
}
