import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { toast } from "#client/lib/toast.ts";
import { Alert } from "./alert.tsx";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";

interface ConfirmDialogProps {
  title: string;
  description: string;
  /** The dangerous button's label ("Delete", "Revoke"). */
  confirmLabel: string;
  /** Said in a toast once the action succeeded. */
  successMessage: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/**
 * "Delete this …?": Cancel, or the dangerous action. The dialog closes when the action succeeded; a refusal
 * is shown inside it, so the person reads why and may try again or cancel.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  successMessage,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, setIsPending] = useState(false);
  const confirm = async () => {
    setIsPending(true);
    try {
      await onConfirm();
      toast.success(successMessage);
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t`Something went wrong.`);
      setIsPending(false);
    }
  };
  return (
    <Dialog title={title} description={description} onClose={onClose}>
      {error ? <Alert>{error}</Alert> : null}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        <Button variant="danger" disabled={isPending} onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
