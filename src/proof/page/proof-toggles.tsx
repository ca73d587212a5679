import type { PaperIccProfile } from '../../contract/catalogue.ts';
import type { ProofIntent } from '../shared/proof-api.ts';
import { INTENT_NAMES, setProofSettings, useProofSettings } from './proof-settings.ts';
import type { SoftProofView } from './use-soft-proof.ts';
import './proof-toggles.css';

/** The share out of gamut as the caption says it: one decimal below 10 %, whole above. */
const percent = (share: number) => {
  const p = share * 100;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
};

function caption(paperName: string, intent: ProofIntent, view: SoftProofView, gamutWarning: boolean): string {
  const base = `Proof on ${paperName}, ${INTENT_NAMES[intent]}`;
  if (view.state === 'working') return `${base}: proofing…`;
  if (view.state === 'failed') return `${base}: the proof could not be made. ${view.error ?? ''}`.trim();
  if (view.outOfGamut === null) return base;
  const outside = view.outOfGamut > 0 ? `${percent(view.outOfGamut)} of the photo is outside what the paper can hold` : 'the paper holds every colour of the photo';
  return `${base}: ${outside}${gamutWarning && view.outOfGamut > 0 ? ' (marked)' : ''}.`;
}

/**
 * PROOF ON PAPER and GAMUT WARNING, with the intent and a caption naming the paper and the
 * intent. Nothing at all for a paper without a profile: no proof is offered rather than a fake one.
 */
export function ProofToggles({ paperName, profile, view }: { paperName: string; profile: PaperIccProfile | null; view: SoftProofView }) {
  const { on, gamutWarning, intent } = useProofSettings();
  if (!profile) return null;
  return (
    <fieldset className="proof-toggles">
      <legend className="visually-hidden">Soft proof on {paperName}</legend>
      <label className="proof-switch">
        <input type="checkbox" role="switch" checked={on} onChange={(e) => setProofSettings({ on: e.target.checked })} />
        PROOF ON PAPER
      </label>
      <label className="proof-switch">
        <input type="checkbox" role="switch" checked={gamutWarning} disabled={!on} onChange={(e) => setProofSettings({ gamutWarning: e.target.checked })} />
        GAMUT WARNING
      </label>
      <label className="proof-intent">
        INTENT
        <select value={intent} disabled={!on} onChange={(e) => setProofSettings({ intent: e.target.value as ProofIntent })}>
          <option value="relative">Relative colorimetric</option>
          <option value="perceptual">Perceptual</option>
        </select>
      </label>
      {on ? (
        <p className="proof-caption" role="status">
          {caption(paperName, intent, view, gamutWarning)}
        </p>
      ) : null}
    </fieldset>
  );
}
