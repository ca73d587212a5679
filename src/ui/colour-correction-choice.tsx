import { useId, useState } from 'react';
import { COLOR_CORRECTION_CHOICES, type ColorCorrection } from '../client-rules/order-actions-photographer.ts';
import './colour-correction-choice.css';

/**
 * COLOUR CORRECTION: the photographer's per-order choice, 'Lab corrects colour' or 'Print as is'
 * (issue 13), as a radio group with what each means. Checkout details and the detail of an open
 * order show it; each choice is saved at once by the caller (`onChange` settles when it is).
 */
export function ColourCorrectionChoice({ value, disabled, onChange }: { value: ColorCorrection; disabled: boolean; onChange: (value: ColorCorrection) => Promise<unknown> }) {
  const name = useId();
  // The choice clicked shows at once while the lab saves it; when the call settles the caller's
  // value (the lab's answer, or the old choice after a refusal) shows again.
  const [pending, setPending] = useState<ColorCorrection | null>(null);
  const shown = pending ?? value;
  const choose = (next: ColorCorrection) => {
    setPending(next);
    void onChange(next).finally(() => setPending(null));
  };
  return (
    <fieldset className="colour-choice">
      <legend>COLOUR CORRECTION</legend>
      {COLOR_CORRECTION_CHOICES.map((c) => (
        // The hint describes the choice, outside its label: the radio's name stays the choice itself.
        <div key={c.value} className="colour-option">
          <label>
            <input type="radio" name={name} value={c.value} checked={shown === c.value} disabled={disabled || pending !== null} onChange={() => choose(c.value)} aria-describedby={`${name}-${c.value}`} />
            <span className="colour-label">{c.label}</span>
          </label>
          <p id={`${name}-${c.value}`} className="muted colour-hint">
            {c.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}
