import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "./cn.ts";

/** The id of the message under a control; controls point at it with aria-describedby. */
export const errorIdFor = (id: string) => `${id}-error`;

interface FieldProps {
  label: string;
  htmlFor: string;
  error?: string;
  className?: string;
  children: ReactNode;
}

/** A label, its control, and the control's inline error. */
export function Field({ label, htmlFor, error, className, children }: FieldProps) {
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={htmlFor} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error ? (
        <p id={errorIdFor(htmlFor)} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const controlClass = (isInvalid: boolean, className?: string) =>
  cn(
    "block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm transition-colors",
    "placeholder:text-slate-400 focus:outline-none focus:ring-2 disabled:bg-slate-50 disabled:text-slate-500",
    isInvalid
      ? "border-red-400 focus:border-red-500 focus:ring-red-500/20"
      : "border-slate-300 focus:border-indigo-500 focus:ring-indigo-500/20",
    className,
  );

/** aria-invalid and aria-describedby for a control whose Field shows an error. */
export const invalidProps = (id: string | undefined, isInvalid: boolean) =>
  isInvalid && id ? { "aria-invalid": true, "aria-describedby": errorIdFor(id) } : {};

interface ControlProps {
  invalid?: boolean;
}

export function Input({ invalid = false, className, id, ...props }: ComponentProps<"input"> & ControlProps) {
  return (
    <input id={id} className={controlClass(invalid, className)} {...invalidProps(id, invalid)} {...props} />
  );
}

export function Textarea({
  invalid = false,
  className,
  id,
  ...props
}: ComponentProps<"textarea"> & ControlProps) {
  return (
    <textarea
      id={id}
      className={controlClass(invalid, cn("min-h-28 resize-y", className))}
      {...invalidProps(id, invalid)}
      {...props}
    />
  );
}

/** The props a labelled control takes: its Field's label and error, and everything its control takes. */
export type LabelledControlProps<Control> = Omit<Control, "invalid"> & {
  label: string;
  error?: string;
};

/**
 * The id a labelled control renders with: the one given, else a generated one. The label's htmlFor and
 * the error's id follow it, so a form needs no ids of its own.
 */
export function useControlId(id: string | undefined) {
  const generatedId = useId();
  return id ?? generatedId;
}

/**
 * A Field around an Input, as one element: `<TextField label="Email" error={…} {...register("email")} />`.
 * The control is invalid while there is an error; `className` goes to the Field (for layout).
 * `suggestions` are offered as the browser's own list (a datalist): any other text can still be typed.
 */
export function TextField({
  label,
  error,
  className,
  id,
  suggestions,
  ...props
}: LabelledControlProps<ComponentProps<typeof Input>> & { suggestions?: readonly string[] }) {
  const controlId = useControlId(id);
  const listId = `${controlId}-suggestions`;
  const hasSuggestions = suggestions !== undefined && suggestions.length > 0;
  return (
    <Field label={label} htmlFor={controlId} error={error} className={className}>
      <Input
        id={controlId}
        invalid={error !== undefined}
        list={hasSuggestions ? listId : undefined}
        {...props}
      />
      {hasSuggestions ? (
        <datalist id={listId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      ) : null}
    </Field>
  );
}
