import { t } from "@lingui/core/macro";
import { cn } from "./cn.ts";

export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn("inline-flex items-center gap-2 text-sm text-slate-500", className)}>
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-slate-200 border-t-indigo-600"
      />
      <span className="sr-only">{label ?? t`Loading`}</span>
    </span>
  );
}

/** A small spinner centred in the page, while a screen waits for what it needs. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
