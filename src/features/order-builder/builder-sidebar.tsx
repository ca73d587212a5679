import type { Dispatch } from 'react';
import type { BuilderAction } from './builder-reducer.ts';
import { blockedBecause, finishingDropdowns, offersBorder, type FinishingDropdown } from '../../domain/builder-gating.ts';
import type { Selections } from '../../domain/builder-selections.ts';
import type { FinishingGroup, Paper } from '../../contract/catalogue.ts';
import { BORDERS, type BorderValue, type FinishingCategory } from '../../domain/catalogue.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { ListSelect, MOUNT_SIZE_MAX_HEIGHT_PX, type ListOption } from '../../ui/list-select.tsx';

const CHOOSE = '';
const CHOOSE_OPTION: ListOption = { value: CHOOSE, label: 'Choose…' };

const priced = (label: string, cents: number) => (cents > 0 ? `${label} (+${formatMoney(cents)})` : label);

function FinishingSelect(props: { dropdown: FinishingDropdown; category: FinishingCategory | null; blocked: string | null; dispatch: Dispatch<BuilderAction> }) {
  const { dropdown, blocked, dispatch } = props;
  const change = (value: string) => {
    const v = value === CHOOSE ? null : value;
    if (dropdown.field === 'finishingCategory') dispatch({ type: 'finishingCategory', category: v as FinishingCategory | null });
    else dispatch({ type: dropdown.field, guid: v });
  };
  const mountSize = dropdown.field === 'finishingOptionOne' && props.category === 'mount';
  return (
    <div className="builder-field">
      <ListSelect
        label={dropdown.label}
        value={dropdown.value ?? CHOOSE}
        onChange={change}
        blockedBecause={blocked}
        maxHeight={mountSize ? MOUNT_SIZE_MAX_HEIGHT_PX : undefined}
        options={[CHOOSE_OPTION, ...dropdown.options.map((o) => ({ value: o.value, label: priced(o.label, o.priceCents) }))]}
      />
    </div>
  );
}

/**
 * The left sidebar (docs/orders.md §2, §4): paper, print size, border, finishing and its details, and
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
        <ListSelect
          label="PAPER"
          value={s.paperGuid ?? CHOOSE}
          blockedBecause={blockedBecause('paper', s)}
          onChange={(guid) => dispatch({ type: 'paper', paper: papers.find((p) => p.guid === guid) ?? null })}
          options={[CHOOSE_OPTION, ...papers.map((p) => ({ value: p.guid, label: p.name }))]}
        />
      </div>
      <div className="builder-field">
        <ListSelect
          label="PRINT SIZE"
          value={s.printSizeGuid ?? CHOOSE}
          blockedBecause={blockedBecause('printSize', s)}
          onChange={(guid) => dispatch({ type: 'printSize', printSizeGuid: guid || null })}
          options={[CHOOSE_OPTION, ...(paper?.print_size_pricings ?? []).map((size) => ({ value: size.guid, label: `${size.name} (${formatMoney(toCents(size.price))})` }))]}
        />
      </div>
      {offersBorder(paper) ? (
        <div className="builder-field">
          <ListSelect
            label="BORDER"
            value={s.printBorder}
            blockedBecause={blockedBecause('border', s)}
            onChange={(v) => dispatch({ type: 'border', border: v as BorderValue })}
            options={BORDERS}
          />
        </div>
      ) : null}
      {finishingDropdowns(s, paper, groups).map((d) => (
        <FinishingSelect key={d.field} dropdown={d} category={s.finishingCategory} blocked={d.field === 'finishingCategory' ? blockedBecause('finishing', s) : null} dispatch={dispatch} />
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
