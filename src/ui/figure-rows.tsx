import './figure-rows.css';

/** An order's figures as label and amount rows, the TOTAL row emphasised (cart review, checkout). */
export function FigureRows({ rows }: { rows: readonly { label: string; text: string }[] }) {
  return (
    <dl className="figure-rows">
      {rows.map((row) => (
        <div key={row.label} className={`figure-row${row.label === 'TOTAL' ? ' is-total' : ''}`}>
          <dt>{row.label}</dt>
          <dd>{row.text}</dd>
        </div>
      ))}
    </dl>
  );
}
