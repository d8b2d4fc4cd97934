import { t } from "@lingui/core/macro";
import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, useState } from "react";
import { Field, Input, type LabelledControlProps, useControlId } from "./field.tsx";

type PasswordInputProps = Omit<ComponentProps<typeof Input>, "type">;

/** A password input with a Show password / Hide password toggle. */
export function PasswordInput({ className, ...props }: PasswordInputProps) {
  const [isVisible, setIsVisible] = useState(false);
  const Icon = isVisible ? EyeOff : Eye;
  return (
    <div className="relative">
      <Input type={isVisible ? "text" : "password"} className={`pr-10 ${className ?? ""}`} {...props} />
      <button
        type="button"
        aria-label={isVisible ? t`Hide password` : t`Show password`}
        aria-pressed={isVisible}
        onClick={() => setIsVisible((visible) => !visible)}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <Icon aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

/** A Field around a PasswordInput, as one element; see TextField. */
export function PasswordField({
  label,
  error,
  className,
  id,
  ...props
}: LabelledControlProps<PasswordInputProps>) {
  const controlId = useControlId(id);
  return (
    <Field label={label} htmlFor={controlId} error={error} className={className}>
      <PasswordInput id={controlId} invalid={error !== undefined} {...props} />
    </Field>
  );
}
