import './figure-rows.css';

/** An order's figures as label and amount rows, the TOTAL row emphasised (cart review, checkout). */
export function FigureRows({ rows }: { rows: readonly { label: string; detail?: string | null; text: string }[] }) {
  return (
    <dl className="figure-rows">
      {rows.map((row) => (
        <div key={row.label} className={`figure-row${row.label === 'TOTAL' ? ' is-total' : ''}`}>
          <dt>
            <span>{row.label}</span>
            {row.detail ? <span className="figure-detail"> {row.detail}</span> : null}
          </dt>
          <dd>{row.text}</dd>
        </div>
      ))}
    </dl>
  );
}
