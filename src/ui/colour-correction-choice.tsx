import { useId } from 'react';
import { COLOR_CORRECTION_CHOICES, type ColorCorrection } from '../domain/order-actions-photographer.ts';
import './colour-correction-choice.css';

/**
 * COLOUR CORRECTION: the photographer's per-order choice, 'Lab corrects colour' or 'Print as is'
 * (issue 13), as a radio group with what each means. Checkout details and the detail of an open
 * order show it; each choice is saved at once by the caller.
 */
export function ColourCorrectionChoice({ value, disabled, onChange }: { value: ColorCorrection; disabled: boolean; onChange: (value: ColorCorrection) => void }) {
  const name = useId();
  return (
    <fieldset className="colour-choice">
      <legend>COLOUR CORRECTION</legend>
      {COLOR_CORRECTION_CHOICES.map((c) => (
        <label key={c.value} className="colour-option">
          <input type="radio" name={name} value={c.value} checked={value === c.value} disabled={disabled} onChange={() => onChange(c.value)} aria-describedby={`${name}-${c.value}`} />
          <span>
            <span className="colour-label">{c.label}</span>
            <span id={`${name}-${c.value}`} className="muted colour-hint">
              {c.hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
