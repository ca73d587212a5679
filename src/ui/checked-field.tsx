import { useState, type InputHTMLAttributes } from 'react';

/**
 * A labelled input that keeps what was typed and says what is wrong with it right below,
 * announced as the field's description (issue 31: never strip what was typed).
 */
export function CheckedField(props: { id: string; label: string; problem: string | null } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  const { id, label, problem, ...input } = props;
  return (
    <div className="labelled-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-problem` : undefined} {...input} />
      {problem ? (
        <p id={`${id}-problem`} className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Which fields the person has finished with (left, or the form sent): a value too short is said
 * only then, not while it is typed. `refuse` is the submit's check: every wrong field says so, the
 * first one takes the focus, and the caller sends nothing.
 */
export function useFinishedFields<K extends string>() {
  const [finished, setFinished] = useState<ReadonlySet<K>>(() => new Set());
  return {
    finished: (field: K) => finished.has(field),
    leave: (field: K) => setFinished((now) => (now.has(field) ? now : new Set(now).add(field))),
    reset: () => setFinished(new Set()),
    /** `wrong`: the wrong fields in the form's order, with their input's id; true when the submit must stop. */
    refuse: (wrong: { field: K; id: string }[]): boolean => {
      const first = wrong[0];
      if (!first) return false;
      setFinished((now) => new Set([...now, ...wrong.map((w) => w.field)]));
      document.getElementById(first.id)?.focus();
      return true;
    },
  };
}
