import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Ban, Check, Equal, WandSparkles } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { stepText } from "#client/features/macros/macro-labels.ts";
import { macroListQuery, macroPreviewQuery, useApplyMacro } from "#client/features/macros/macros.api.ts";
import { Link } from "#client/lib/router/links.tsx";
import { toast } from "#client/lib/toast.ts";
import type { MacroStep } from "#shared/macros/macro.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

/**
 * "Apply macro" beside a staff member's comment tools (decision 075): choose a macro, read what it would do
 * to this ticket (each change, what is already so, what would be refused and why), and apply it in one step.
 * The page stores the changed ticket (`onChanged`) or reads it again after a refusal (`onRefused`).
 */
export function ApplyMacroButton({
  ticketId,
  onChanged,
  onRefused,
}: {
  ticketId: string;
  onChanged: (ticket: Ticket) => void;
  onRefused: (error: Error) => void;
}) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" size="sm" onClick={() => setIsOpen(true)}>
        <WandSparkles aria-hidden="true" className="size-4" />
        <Trans>Apply macro</Trans>
      </Button>
      {isOpen ? (
        <ApplyMacroDialog
          ticketId={ticketId}
          onClose={() => setIsOpen(false)}
          onChanged={onChanged}
          onRefused={onRefused}
        />
      ) : null}
    </>
  );
}

function ApplyMacroDialog({
  ticketId,
  onClose,
  onChanged,
  onRefused,
}: {
  ticketId: string;
  onClose: () => void;
  onChanged: (ticket: Ticket) => void;
  onRefused: (error: Error) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const macros = useQuery(macroListQuery());
  const [macroId, setMacroId] = useState("");
  const preview = useQuery({ ...macroPreviewQuery(ticketId, macroId), enabled: macroId !== "" });
  const apply = useApplyMacro(ticketId);
  const [error, setError] = useState<string | null>(null);

  const handleApply = async () => {
    setError(null);
    try {
      const result = await apply.mutateAsync(macroId);
      onChanged(result.ticket);
      const title = preview.data?.title ?? "";
      toast.success(t`Macro applied: ${title}`);
      onClose();
    } catch (failure) {
      if (failure instanceof Error) {
        setError(failure.message);
        onRefused(failure);
      }
      void preview.refetch();
    }
  };

  return (
    <Dialog
      title={t`Apply a macro`}
      description={t`See what it will do to this ticket, then apply it in one step.`}
      onClose={onClose}
    >
      <div className="flex flex-col gap-4">
        {macros.isPending ? (
          <Spinner label={t`Loading macros`} />
        ) : (macros.data ?? []).length === 0 ? (
          <p className="text-sm text-slate-600">
            <Trans>
              You have no macros yet. <Link to="/macros">Create one on the Macros page.</Link>
            </Trans>
          </p>
        ) : (
          <Field label={t`Macro`} htmlFor={`${id}-macro`}>
            <Select
              id={`${id}-macro`}
              value={macroId}
              onChange={(event) => {
                setError(null);
                setMacroId(event.target.value);
              }}
              options={[
                { value: "", label: t`Choose a macro…` },
                ...(macros.data ?? []).map((macro) => ({ value: macro.id, label: macro.title })),
              ]}
            />
          </Field>
        )}
        {error ? <Alert>{error}</Alert> : null}
        {macroId === "" ? null : preview.isPending ? (
          <Spinner label={t`Loading what it will do`} />
        ) : preview.isError ? (
          <Alert>{preview.error.message}</Alert>
        ) : (
          <section aria-label={t`What it will do`} aria-live="polite">
            <h3 className="text-sm font-semibold text-slate-900">
              <Trans>What it will do</Trans>
            </h3>
            <ul className="mt-2 flex flex-col gap-1.5">
              {preview.data.steps.map((step) => (
                <StepLine key={step.kind} step={step} />
              ))}
            </ul>
          </section>
        )}
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            type="button"
            disabled={!preview.data?.canApply || macroId === "" || apply.isPending}
            onClick={() => void handleApply()}
          >
            <Trans>Apply</Trans>
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

function StepLine({ step }: { step: MacroStep }) {
  const { t } = useLingui();
  const Icon = step.outcome === "change" ? Check : step.outcome === "unchanged" ? Equal : Ban;
  return (
    <li
      className={cn(
        "flex gap-2 text-sm break-words",
        step.outcome === "refused"
          ? "text-red-700"
          : step.outcome === "unchanged"
            ? "text-slate-500"
            : "text-slate-800",
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0">
        {stepText(step)}
        {step.outcome === "unchanged" ? <span className="ml-1">{t`(already so: skipped)`}</span> : null}
        {step.outcome === "refused" ? (
          <span className="block font-medium">{t`Refused: ${step.reason ?? ""}`}</span>
        ) : null}
      </span>
    </li>
  );
}
