import { CircleCheck } from "lucide-react";
import type { ReactNode } from "react";

/**
 * An inline success a person should read (role="status"): what a form posted without the app's code did,
 * said on the page it came back to, where the app would have shown a toast (decision 065).
 */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="flex gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
    >
      <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{children}</span>
    </p>
  );
}
