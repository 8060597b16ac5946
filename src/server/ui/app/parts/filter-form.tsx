// A list's filter form. Its fields keep what is typed in state of their own, so a list that
// re-renders while loading never resets them; a parent gives it `key` to start again from a new
// filter.
import { useState } from 'preact/hooks';

export interface FilterField {
  key: string;
  label: string;
  type?: 'text' | 'date' | 'datetime-local';
  /** A select of these values, with "Any" first. */
  options?: readonly string[];
  required?: boolean;
}

export type FilterValues = Record<string, string | undefined>;

export function FilterForm({ label, fields, values, submit = 'Apply filters', onApply }: { label: string; fields: readonly FilterField[]; values: FilterValues; submit?: string; onApply: (values: FilterValues) => void }) {
  const [draft, setDraft] = useState<FilterValues>(values);
  const set = (key: string, value: string) => setDraft({ ...draft, [key]: value === '' ? undefined : value });
  return (
    <form
      class="filters"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
    >
      {fields.map((field) =>
        field.options ? (
          <label>
            {field.label}
            <select aria-label={field.label} value={draft[field.key] ?? ''} onChange={(e) => set(field.key, (e.target as HTMLSelectElement).value)}>
              <option value="">Any</option>
              {field.options.map((option) => (
                <option value={option}>{option}</option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            {field.label}
            {field.type === 'date' || field.type === 'datetime-local' ? (
              <input type={field.type} required={field.required} value={draft[field.key] ?? ''} onInput={(e) => set(field.key, (e.target as HTMLInputElement).value)} />
            ) : (
              <input type="text" required={field.required} value={draft[field.key] ?? ''} onInput={(e) => set(field.key, (e.target as HTMLInputElement).value)} />
            )}
          </label>
        ),
      )}
      <button type="submit">{submit}</button>
    </form>
  );
}
