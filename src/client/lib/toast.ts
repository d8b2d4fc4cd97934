import { type ToastContent, type ToastOptions, toast as toastify } from "react-toastify/unstyled";

/**
 * The app's toasts (decision 036). They appear in react-toastify's container, a polite live region that
 * is in the page from the first render (a region added together with its text is not read). Successes
 * and information are `role="status"` (read when the reader is idle); errors are `role="alert"`
 * (read at once, interrupting), whatever the call site passes otherwise.
 */
export const toast = {
  success: (content: ToastContent, options?: ToastOptions) =>
    toastify.success(content, { role: "status", ...options }),
  info: (content: ToastContent, options?: ToastOptions) =>
    toastify.info(content, { role: "status", ...options }),
  error: (content: ToastContent, options?: ToastOptions) =>
    toastify.error(content, { role: "alert", ...options }),
  dismiss: toastify.dismiss,
};
