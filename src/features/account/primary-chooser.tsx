/** Saved items with a primary chooser and removal one by one (addresses, cards: docs/accounts.md §2). */
export function PrimaryChooser(props: {
  legend: string;
  name: string;
  items: { id: string; label: string }[];
  primary: string | null;
  busy: boolean;
  onChoose: (id: string) => void;
  onRemove: (id: string) => void;
  removeAllLabel: string;
  onRemoveAll: () => void;
}) {
  return (
    <fieldset className="address-list">
      <legend>{props.legend}</legend>
      {props.items.map((item) => (
        <div key={item.id} className="address-row">
          <label className="checkbox">
            <input type="radio" name={props.name} checked={props.primary === item.id} disabled={props.busy} onChange={() => props.onChoose(item.id)} />
            {item.label}
          </label>
          <button type="button" className="link" disabled={props.busy} aria-label={`Remove ${item.label}`} onClick={() => props.onRemove(item.id)}>
            REMOVE
          </button>
        </div>
      ))}
      <button type="button" className="link" disabled={props.busy} onClick={props.onRemoveAll}>
        {props.removeAllLabel}
      </button>
    </fieldset>
  );
}
