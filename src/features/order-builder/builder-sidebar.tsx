import type { Dispatch } from 'react';
import type { BuilderAction } from '../../domain/builder-reducer.ts';
import { blockedBecause, finishingDropdowns, offersBorder, type FinishingDropdown } from '../../domain/builder-gating.ts';
import type { Selections } from '../../domain/builder-selections.ts';
import { BORDERS, type BorderValue, type FinishingCategory, type FinishingGroup, type Paper } from '../../domain/catalogue.ts';
import { formatMoney } from '../../domain/money.ts';
import { GatedSelect } from '../../ui/gated-select.tsx';

const CHOOSE = '';

const priced = (label: string, cents: number) => (cents > 0 ? `${label} (+${formatMoney(cents)})` : label);

function FinishingSelect({ dropdown, blocked, dispatch }: { dropdown: FinishingDropdown; blocked: string | null; dispatch: Dispatch<BuilderAction> }) {
  const change = (value: string) => {
    const v = value === CHOOSE ? null : value;
    if (dropdown.field === 'finishingCategory') dispatch({ type: 'finishingCategory', category: v as FinishingCategory | null });
    else dispatch({ type: dropdown.field, guid: v });
  };
  return (
    <div className="builder-field">
      <GatedSelect label={dropdown.label} value={dropdown.value ?? CHOOSE} onChange={change} blockedBecause={blocked}>
        <option value={CHOOSE}>Choose…</option>
        {dropdown.options.map((o) => (
          <option key={o.value} value={o.value}>
            {priced(o.label, o.priceCents)}
          </option>
        ))}
      </GatedSelect>
    </div>
  );
}

/**
 * The left sidebar (orders.md §2, §4): paper, print size, border, finishing and its details, and
 * quantity. What each dropdown offers, when it refuses and what a change resets are the domain's
 * (builder-gating.ts, builder-reducer.ts); this only draws them.
 */
export function BuilderSidebar(props: { s: Selections; papers: readonly Paper[]; groups: readonly FinishingGroup[] | null; dispatch: Dispatch<BuilderAction> }) {
  const { s, papers, groups, dispatch } = props;
  const paper = papers.find((p) => p.guid === s.paperGuid) ?? null;
  const loadingFinishing = s.printSizeGuid !== null && groups === null;
  return (
    <aside className="builder-sidebar" aria-label="Print choices">
      <div className="builder-field">
        <GatedSelect
          label="PAPER"
          value={s.paperGuid ?? CHOOSE}
          blockedBecause={blockedBecause('paper', s)}
          onChange={(guid) => dispatch({ type: 'paper', paper: papers.find((p) => p.guid === guid) ?? null })}
        >
          <option value={CHOOSE}>Choose…</option>
          {papers.map((p) => (
            <option key={p.guid} value={p.guid}>
              {p.name}
            </option>
          ))}
        </GatedSelect>
      </div>
      <div className="builder-field">
        <GatedSelect
          label="PRINT SIZE"
          value={s.printSizeGuid ?? CHOOSE}
          blockedBecause={blockedBecause('printSize', s)}
          onChange={(guid) => dispatch({ type: 'printSize', printSizeGuid: guid || null })}
        >
          <option value={CHOOSE}>Choose…</option>
          {(paper?.print_size_pricings ?? []).map((size) => (
            <option key={size.guid} value={size.guid}>
              {`${size.name} (${formatMoney(Math.round(size.price * 100))})`}
            </option>
          ))}
        </GatedSelect>
      </div>
      {offersBorder(paper) ? (
        <div className="builder-field">
          <GatedSelect label="BORDER" value={s.printBorder} blockedBecause={blockedBecause('border', s)} onChange={(v) => dispatch({ type: 'border', border: v as BorderValue })}>
            {BORDERS.map((b) => (
              <option key={b.value} value={b.value}>
                {b.label}
              </option>
            ))}
          </GatedSelect>
        </div>
      ) : null}
      {finishingDropdowns(s, paper, groups).map((d) => (
        <FinishingSelect key={d.field} dropdown={d} blocked={d.field === 'finishingCategory' ? blockedBecause('finishing', s) : null} dispatch={dispatch} />
      ))}
      {loadingFinishing ? <p className="builder-hint">loading finishing…</p> : null}
      <div className="builder-field quantity-field">
        <label htmlFor="builder-quantity">QUANTITY</label>
        <div className="quantity-box">
          <button type="button" className="button" aria-label="One fewer" onClick={() => dispatch({ type: 'quantityStep', delta: -1 })}>
            −
          </button>
          <input
            id="builder-quantity"
            inputMode="numeric"
            pattern="[0-9]*"
            value={String(s.qty)}
            onChange={(e) => dispatch({ type: 'quantityTyped', text: e.target.value })}
          />
          <button type="button" className="button" aria-label="One more" onClick={() => dispatch({ type: 'quantityStep', delta: 1 })}>
            +
          </button>
        </div>
      </div>
    </aside>
  );
}
