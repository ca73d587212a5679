import { useEffect, useMemo, useState } from 'react';
import { getPriceQuote } from '../../api/catalogue.ts';
import { ApiError, errorLines, errorText } from '../../api/errors.ts';
import {
  CALCULATOR_GROUP_NAMES,
  DETAIL_LABELS,
  finishingChoiceCents,
  finishingChoiceProblem,
  optionOneLabel,
  requiredDetails,
  type CalculatorGroup,
  type DetailKind,
} from '../../domain/catalogue.ts';
import { PAPER_AND_SIZE_FIRST, PAPER_FIRST } from '../../domain/builder-gating.ts';
import { expandCalculatorCatalogue, type CalculatorCatalogue } from '../../client-rules/calculator-catalogue.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { linePriceCents } from '../../domain/pricing.ts';
import { quantityProblem } from '../../domain/validation.ts';
import { readCalculatorCatalogue } from '../../offline/catalogue-copy.ts';
import { CheckedField, useFinishedFields } from '../../ui/checked-field.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { ListSelect, MOUNT_SIZE_MAX_HEIGHT_PX, type ListOption } from '../../ui/list-select.tsx';

type Details = Partial<Record<DetailKind, string>>;
type Result = { cents: number; from: 'server' | 'device' };

const withPrice = (name: string, price: number) => (price > 0 ? `${name} (+${formatMoney(toCents(price))})` : name);
const SELECT: ListOption = { value: '', label: 'Select' };

/** /calculate (docs/orders.md §2, §4): price a print with its finishing, online or offline. */
export function CalculatorScreen() {
  const [wire, setWire] = useState<CalculatorCatalogue | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [paperGuid, setPaperGuid] = useState('');
  const [sizeGuid, setSizeGuid] = useState('');
  const [group, setGroup] = useState<CalculatorGroup | 'none' | ''>('');
  const [serviceGuid, setServiceGuid] = useState('');
  const [details, setDetails] = useState<Details>({});
  const [quantity, setQuantity] = useState('1');
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const checks = useFinishedFields<'quantity'>();

  useEffect(() => {
    readCalculatorCatalogue().then(
      ({ data }) => setWire(data),
      (err: unknown) => setLoadError(errorText(err)),
    );
  }, []);
  // Detail choices carry their option key as guid: the quote takes them as finishing_options.
  const catalogue = useMemo(() => (wire ? expandCalculatorCatalogue(wire) : null), [wire]);

  const paper = catalogue?.find((p) => p.guid === paperGuid);
  const size = paper?.print_size_pricings.find((s) => s.guid === sizeGuid);
  const services = size && group && group !== 'none' ? (size.calculator_groups[group] ?? []) : [];
  const service = services.find((s) => s.guid === serviceGuid);
  const needed = service ? requiredDetails(service.finishing_category) : [];
  const qty = Number(quantity);

  // Each choice shows once the one before it is made (docs/orders.md §4).
  const shownDetails: DetailKind[] = [];
  for (const kind of needed) {
    shownDetails.push(kind);
    if (!details[kind]) break;
  }

  const problem = !size
    ? PAPER_AND_SIZE_FIRST
    : !group
      ? 'Choose a finishing service, or NONE.'
      : group !== 'none' && !service
        ? 'Choose the finishing detail.'
        : service
          ? finishingChoiceProblem({ service, details })
          : null;
  const quantitySaid = quantityProblem(quantity, checks.finished('quantity'));

  const reset = (level: 'paper' | 'size' | 'group' | 'service') => {
    if (level === 'paper') setSizeGuid('');
    if (level === 'paper' || level === 'size') setGroup('');
    if (level !== 'service') setServiceGuid('');
    setDetails({});
    setResult(null);
  };

  const chooseDetail = (kind: DetailKind, guid: string) => {
    // Later choices depend on this one: clear them, and offer the default glass (ACRYLIC).
    const next: Details = {};
    for (const k of needed) {
      if (k === kind) break;
      next[k] = details[k];
    }
    next[kind] = guid;
    const after = needed[needed.indexOf(kind) + 1];
    if (after === 'glass' && guid) next.glass = service?.detail_pricings.glass?.find((g) => g.is_default)?.guid;
    setDetails(next);
    setResult(null);
  };

  const calculate = async () => {
    if (!size || problem) return;
    // A wrong quantity says so beside the box, which takes the focus; nothing is priced.
    if (checks.refuse(quantityProblem(quantity, true) ? [{ field: 'quantity', id: 'calculator-quantity' }] : [])) return;
    const finishing = service ? finishingChoiceCents({ service, details }) : 0;
    const local = linePriceCents({ printCents: toCents(size.price), finishingCents: finishing, quantity: qty });
    setBusy(true);
    try {
      // The server's figure is the authority; the device's own is used when offline.
      const quote = await getPriceQuote({
        print_size: size.guid,
        finishing_service: service?.guid ?? null,
        finishing_options: needed.map((k) => details[k] ?? ''),
        quantity: qty,
      });
      setResult({ cents: toCents(quote.subtotal), from: 'server' });
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'network') setResult({ cents: local, from: 'device' });
      else toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  if (loadError) return <p role="alert">ERROR LOADING: {loadError}</p>;
  if (!catalogue) return <p role="status">loading</p>;

  return (
    <section className="calculator">
      <h1>PRICE CALCULATOR</h1>
      <form
        className="calculator-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void calculate();
        }}
      >
        <ListSelect
          label="Paper Type"
          value={paperGuid}
          onChange={(v) => {
            setPaperGuid(v);
            reset('paper');
          }}
          options={[{ value: '', label: 'Select a paper' }, ...catalogue.map((p) => ({ value: p.guid, label: p.name }))]}
        />

        <ListSelect
          label="Print Size"
          value={sizeGuid}
          blockedBecause={paper ? null : PAPER_FIRST}
          onChange={(v) => {
            setSizeGuid(v);
            reset('size');
          }}
          options={[
            { value: '', label: 'Select a print size' },
            ...(paper?.print_size_pricings ?? []).map((s) => ({ value: s.guid, label: `${s.name} — ${formatMoney(toCents(s.price))}` })),
          ]}
        />

        <ListSelect
          label="Finishing Service"
          value={group}
          blockedBecause={paper && size ? null : PAPER_AND_SIZE_FIRST}
          onChange={(v) => {
            setGroup(v as CalculatorGroup | 'none' | '');
            reset('group');
          }}
          options={[
            { value: '', label: 'Select finishing' },
            // Brushed Canvas must be finished (docs/orders.md §4: NONE hidden).
            ...(paper?.name === 'Brushed Canvas' ? [] : [{ value: 'none', label: 'NONE' }]),
            ...(size ? (Object.keys(size.calculator_groups) as CalculatorGroup[]).map((g) => ({ value: g, label: CALCULATOR_GROUP_NAMES[g] })) : []),
          ]}
        />

        {group && group !== 'none' ? (
          <ListSelect
            label={optionOneLabel(services[0]?.finishing_category ?? 'none')}
            value={serviceGuid}
            maxHeight={services[0]?.finishing_category === 'mount' ? MOUNT_SIZE_MAX_HEIGHT_PX : undefined}
            onChange={(v) => {
              setServiceGuid(v);
              reset('service');
            }}
            options={[SELECT, ...services.map((s) => ({ value: s.guid, label: withPrice(s.name, s.price) }))]}
          />
        ) : null}

        {service
          ? shownDetails.map((kind) => (
              <ListSelect
                key={kind}
                label={DETAIL_LABELS[kind]}
                value={details[kind] ?? ''}
                onChange={(v) => chooseDetail(kind, v)}
                options={[SELECT, ...(service.detail_pricings[kind] ?? []).map((d) => ({ value: d.guid, label: withPrice(d.name, d.price) }))]}
              />
            ))
          : null}

        <CheckedField
          id="calculator-quantity"
          label="Quantity"
          problem={quantitySaid}
          inputMode="numeric"
          value={quantity}
          onChange={(e) => {
            setQuantity(e.target.value);
            setResult(null);
          }}
          onBlur={() => checks.leave('quantity')}
        />

        <button type="submit" className="button primary" disabled={Boolean(problem) || busy}>
          Calculate
        </button>
        {problem && size ? <p className="muted">{problem}</p> : null}
      </form>

      <div className="calculator-result" aria-live="polite">
        <h2>Subtotal Price</h2>
        <p className="price" data-testid="subtotal">
          {result ? formatMoney(result.cents) : '—'}
        </p>
        {result?.from === 'device' ? <p className="muted">You are offline: calculated on this device from the saved price list.</p> : null}
        <p className="muted">All orders are charged $10 for shipping</p>
      </div>
    </section>
  );
}
