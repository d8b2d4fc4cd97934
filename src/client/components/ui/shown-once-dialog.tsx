import { Trans } from "@lingui/react/macro";
import { Copy } from "lucide-react";
import { type ReactNode, useId } from "react";
import { toast } from "#client/lib/toast.ts";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import { Field } from "./field.tsx";

interface ShownOnceDialogProps {
  title: string;
  description: string;
  /** The field's label, e.g. "Your token". */
  label: string;
  /** The secret, shown here and never again. */
  value: string;
  /** The toasts after Copy: copied, or the browser refused. */
  copiedMessage: string;
  copyRefusedMessage: string;
  /** Anything to show below the secret (an example of its use). */
  children?: ReactNode;
  onClose: () => void;
}

/**
 * A secret the server shows only once (an API token, a webhook's signing secret): in a read-only field
 * that selects itself, with a Copy button, until Done.
 */
export function ShownOnceDialog({
  title,
  description,
  label,
  value,
  copiedMessage,
  copyRefusedMessage,
  children,
  onClose,
}: ShownOnceDialogProps) {
  const fieldId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(copiedMessage);
    } catch {
      toast.error(copyRefusedMessage);
    }
  }
  return (
    <Dialog title={title} description={description} onClose={onClose}>
      <div className="flex flex-col gap-4">
        <Field label={label} htmlFor={fieldId}>
          <div className="flex gap-2">
            <input
              id={fieldId}
              readOnly
              value={value}
              onFocus={(event) => event.target.select()}
              className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900"
            />
            <Button variant="secondary" onClick={() => void copy()}>
              <Copy aria-hidden="true" className="size-4" />
              <Trans>Copy</Trans>
            </Button>
          </div>
        </Field>
        {children}
        <div className="flex justify-end">
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
