import { t } from "@lingui/core/macro";
import { CircleAlert, CircleCheck, Info, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { type ToastItem, toast } from "#client/lib/toast.ts";
import { cn } from "./cn.ts";

const icons = { success: CircleCheck, info: Info, error: CircleAlert };

/** One toast: its icon, text, close button closing after its time (paused while pointed at). */
export function Toast({ item }: { item: ToastItem }) {
  const [isPaused, setPaused] = useState(false);
  const remaining = useRef(item.autoClose === false ? 0 : item.autoClose);
  useEffect(() => {
    if (item.autoClose === false || isPaused) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => toast.dismiss(item.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt;
    };
  }, [item.id, item.autoClose, isPaused]);
  const Icon = icons[item.kind];
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointing at a toast only pauses its timer (as react-toastify did); its control is the close button
    <div
      role={item.role}
      className={cn("toast", `toast--${item.kind}`, `toast--${item.theme}`, item.className)}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
    >
      {item.icon ? <Icon aria-hidden="true" className="toast__icon size-5 shrink-0" /> : null}
      <div className="min-w-0 flex-1">{item.content}</div>
      <button
        type="button"
        aria-label={t`close`}
        className="toast__close"
        onClick={() => toast.dismiss(item.id)}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
