import type { ReactNode } from "react";

/**
 * The app's toasts (decision 036; our own module since decision 037, which replaced react-toastify). They
 * appear in <Toaster> (components/ui/toaster.tsx), a polite live region that is in the page from the first
 * render (a region added together with its text is not read). Successes and information are
 * `role="status"` (read when the reader is idle); errors are `role="alert"` (read at once, interrupting),
 * whatever the call site passes otherwise. A toast with the `toastId` of one already shown is not shown
 * twice.
 */
export type ToastKind = "success" | "info" | "error";

export interface ToastOptions {
  /** Shows the toast once however many times it is raised while it is on screen; `dismiss` takes it. */
  toastId?: string;
  role?: "status" | "alert";
  /** Bottom centre; the technician alert alone is at the top. */
  position?: "bottom-center" | "top-center";
  /** Milliseconds before it closes by itself (5 s), or false to stay until closed. */
  autoClose?: number | false;
  /** "dark" (the app's toasts) or "colored" (the kind's own colour, the red technician alert). */
  theme?: "dark" | "colored";
  /** false: no icon before the text. */
  icon?: boolean;
  className?: string;
}

export interface ToastItem extends Required<Omit<ToastOptions, "className" | "toastId">> {
  id: string;
  kind: ToastKind;
  content: ReactNode;
  className: string | undefined;
}

let toasts: readonly ToastItem[] = [];
const listeners = new Set<() => void>();
let counter = 0;

function emit(next: readonly ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function show(kind: ToastKind, content: ReactNode, options: ToastOptions): string {
  const id = options.toastId ?? `toast-${++counter}`;
  if (toasts.some((item) => item.id === id)) return id;
  emit([
    {
      id,
      kind,
      content,
      role: options.role ?? (kind === "error" ? "alert" : "status"),
      position: options.position ?? "bottom-center",
      autoClose: options.autoClose ?? 5000,
      theme: options.theme ?? "dark",
      icon: options.icon ?? true,
      className: options.className,
    },
    ...toasts,
  ]);
  return id;
}

export const toast = {
  success: (content: ReactNode, options: ToastOptions = {}) =>
    show("success", content, { role: "status", ...options }),
  info: (content: ReactNode, options: ToastOptions = {}) =>
    show("info", content, { role: "status", ...options }),
  error: (content: ReactNode, options: ToastOptions = {}) =>
    show("error", content, { role: "alert", ...options }),
  /** Closes the toast with this id, or every toast. */
  dismiss: (id?: string) => emit(id === undefined ? [] : toasts.filter((item) => item.id !== id)),
};

/** For <Toaster>: the toasts on screen, newest first. */
export const toastStore = {
  getSnapshot: () => toasts,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
