import { t } from "@lingui/core/macro";
import { X } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";
import { cn } from "./cn.ts";

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** "top" keeps a search box and its results clear of a phone's on-screen keyboard. */
  placement?: "center" | "top";
}

/**
 * A modal dialog: focus moves into it and stays there (Tab and Shift+Tab wrap), Escape or the close
 * button closes it, and focus returns to whatever opened it. Render it only while open.
 */
export function Dialog({ title, description, onClose, children, placement = "center" }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = panel.current!;
    const focusables = () => Array.from(node.querySelectorAll<HTMLElement>(focusableSelector));
    // The first field, else the first control after the close button, else the panel itself.
    (node.querySelector<HTMLElement>("input, select, textarea") ?? focusables()[1] ?? node).focus();

    function handleKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") {
        event.preventDefault();
        close.current();
        return;
      }
      if (event.key !== "Tab") return;
      const all = focusables();
      const first = all[0];
      const last = all.at(-1);
      if (!first || !last) return;
      if (event.shiftKey && (document.activeElement === first || !node.contains(document.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener("keydown", handleKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", handleKeyDown);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  return createPortal(
    <div
      className={
        placement === "top"
          ? "fixed inset-0 z-50 flex items-start justify-center bg-slate-900/50 p-0 dark:bg-black/70 sm:p-4 sm:pt-[12vh]"
          : "fixed inset-0 z-50 flex items-end justify-center bg-slate-900/50 p-0 dark:bg-black/70 sm:items-center sm:p-4"
      }
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(
          "max-h-[92vh] w-full overflow-y-auto bg-white p-5 shadow-xl focus:outline-none sm:max-w-lg sm:rounded-xl sm:p-6",
          placement === "top" ? "rounded-b-xl" : "rounded-t-xl",
        )}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description ? (
              <div id={descriptionId} className="mt-1 text-sm text-slate-500">
                {description}
              </div>
            ) : null}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t`Close`}
            className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
