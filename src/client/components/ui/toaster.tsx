import { t } from "@lingui/core/macro";
import { useEffect, useSyncExternalStore } from "react";
import { toast, toastStore } from "#client/lib/toast.ts";
import { Toast } from "./toast-item.tsx";

/**
 * Where lib/toast.ts's toasts appear (decision 037, in place of react-toastify's container): a polite live
 * region drawn from the first render, the toasts stacked newest first at the bottom centre (the technician
 * alert at the top), dark, each closing by itself after its time (paused while the pointer is on it) or
 * with its close button. No progress bar: a running animation would keep journeys waiting for the page to
 * settle until the toast had gone.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot, toastStore.getSnapshot);
  // Toasts belong to the page that raised them: none outlive the app (or a test's render).
  useEffect(() => () => toast.dismiss(), []);
  return (
    <section aria-label={t`Messages`} aria-live="polite" aria-atomic="false" aria-relevant="additions text">
      {(["top-center", "bottom-center"] as const).map((position) => {
        const here = toasts.filter((item) => item.position === position);
        return here.length > 0 ? (
          <div key={position} className={`toasts toasts--${position}`}>
            {here.map((item) => (
              <Toast key={item.id} item={item} />
            ))}
          </div>
        ) : null;
      })}
    </section>
  );
}
