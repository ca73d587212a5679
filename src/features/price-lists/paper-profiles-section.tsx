import { useEffect, useState } from 'react';
import { attachPaperProfile, removePaperProfile } from '../../api/catalogue.ts';
import { errorLines, errorText } from '../../api/errors.ts';
import type { Paper, PaperIccProfile } from '../../contract/catalogue.ts';
import { PAPER_PROFILE_MAX_BYTES } from '../../domain/paper-profile.ts';
import { readPapers } from '../../offline/catalogue-copy.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';

const MAX_MB = PAPER_PROFILE_MAX_BYTES / (1024 * 1024);

/** A file's bytes in base64, as the upload call carries them. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // A data URL is "data:<type>;base64,<bytes>": the part after the comma.
    reader.addEventListener('load', () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1)), { once: true });
    reader.addEventListener('error', () => reject(reader.error ?? new Error('The file could not be read.')), { once: true });
    reader.readAsDataURL(file);
  });
}

function PaperProfileRow({ paper }: { paper: Paper }) {
  const [profile, setProfile] = useState<PaperIccProfile | null>(paper.icc_profile ?? null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const upload = async (file: File) => {
    setProblem(null);
    if (file.size > PAPER_PROFILE_MAX_BYTES) {
      setProblem(`This profile is larger than ${MAX_MB} MB.`);
      return;
    }
    setBusy(true);
    try {
      const { data } = await attachPaperProfile(paper.guid, file.name, await base64Of(file));
      setProfile(data);
      toast.success(`${data.name} is now the profile of ${paper.name}.`);
    } catch (err) {
      setProblem(errorLines(err).join(' '));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setProblem(null);
    setBusy(true);
    try {
      await removePaperProfile(paper.guid);
      setProfile(null);
      toast.success(`${paper.name} has no profile now: no proof is offered on it.`);
    } catch (err) {
      setProblem(errorLines(err).join(' '));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <tr>
      <th scope="row">{paper.name}</th>
      <td data-label="PROFILE">
        {profile ? `${profile.name} (${profile.colour_space})` : 'None: no proof offered'}{' '}
        {profile ? (
          <button type="button" className="button danger" disabled={busy} onClick={() => setAsking(true)}>
            REMOVE<span className="visually-hidden"> the profile of {paper.name}</span>
          </button>
        ) : null}
        {asking && profile ? (
          <ConfirmDialog
            title="REMOVE THIS PROFILE?"
            message={`${profile.name} stops being the profile of ${paper.name}: photographers are offered no soft proof on this paper until another is attached.`}
            cancel="KEEP PROFILE"
            confirm="REMOVE PROFILE"
            destructive
            busy={busy ? { label: 'removing…' } : null}
            onCancel={() => setAsking(false)}
            onConfirm={() => void remove()}
          />
        ) : null}
      </td>
      <td data-label="ATTACH">
        <label className="profile-file">
          <span className="visually-hidden">ICC profile for {paper.name}</span>
          <input
            type="file"
            accept=".icc,.icm,application/vnd.iccprofile"
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
        </label>
        {busy ? <span role="status">checking…</span> : null}
        {problem ? (
          <p role="alert" className="field-error">
            {problem}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * For lab admins on /price-lists: each paper's ICC output profile for the soft proof, a file
 * field to attach one (checked by the lab; a refused file says why), and REMOVE to take it away.
 */
export function PaperProfilesSection() {
  const [papers, setPapers] = useState<Paper[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    readPapers().then(
      ({ data }) => setPapers(data.data),
      (err: unknown) => setError(errorText(err)),
    );
  }, []);
  if (error) return <p role="alert">ERROR LOADING PAPERS: {error}</p>;
  if (!papers) return null;
  return (
    <section className="paper-profiles" aria-labelledby="paper-profiles-title">
      <h2 id="paper-profiles-title">PAPER PROFILES</h2>
      <p className="muted">
        The ICC output profile of each paper, measured on the lab's printer: photographers see their photos proofed on it in the builder and the cart preview. A printer
        profile (RGB or CMYK), up to {MAX_MB} MB.
      </p>
      <div className="table-scroll" role="region" aria-label="Paper profiles" tabIndex={0}>
        <table className="price-table">
          <thead>
            <tr>
              <th scope="col">PAPER</th>
              <th scope="col">PROFILE</th>
              <th scope="col">ATTACH</th>
            </tr>
          </thead>
          <tbody>
            {papers.map((p) => (
              <PaperProfileRow key={p.guid} paper={p} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
