import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { controlClass, invalidProps } from "./field.tsx";

interface SelectProps extends ComponentProps<"select"> {
  invalid?: boolean;
  options: readonly { value: string; label: string }[];
}

export function Select({ invalid = false, className, id, options, ...props }: SelectProps) {
  return (
    <div className="relative">
      <select
        id={id}
        className={controlClass(invalid, `appearance-none pr-9 ${className ?? ""}`)}
        {...invalidProps(id, invalid)}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-400"
      />
    </div>
  );
}

/** Options whose label is the value itself: ["Low", "High"] → Low, High. */
export const optionsOf = (values: readonly string[]) => values.map((value) => ({ value, label: value }));
