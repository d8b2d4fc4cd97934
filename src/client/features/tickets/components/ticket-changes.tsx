import { Trans, useLingui } from "@lingui/react/macro";
import { changedValueText, fieldLabels } from "#client/features/tickets/ticket-labels.ts";
import type { TicketChange } from "#shared/tickets/ticket-edit.ts";

/** An "edited" event's fields: "Priority: Low → High"; a description's old and new text fold away. */
export function TicketChanges({ changes }: { changes: TicketChange[] }) {
  const { i18n } = useLingui();
  // A custom field's label is data; the ticket's own fields are named in the active language.
  const labelOf = (change: TicketChange) =>
    "label" in change ? change.label : i18n._(fieldLabels[change.field]);
  return (
    <ul className="mt-1 flex flex-col gap-1 text-slate-600">
      {changes.map((change) =>
        change.field === "description" ? (
          <li key={change.field}>
            <details>
              <summary className="cursor-pointer">
                <Trans>
                  <span className="font-medium text-slate-700">Description</span> edited
                </Trans>
              </summary>
              <p className="mt-1 text-xs font-medium text-slate-500">
                <Trans>Before</Trans>
              </p>
              <p className="line-clamp-6 break-words whitespace-pre-wrap text-slate-500 line-through decoration-slate-300">
                {change.from}
              </p>
              <p className="mt-1 text-xs font-medium text-slate-500">
                <Trans>After</Trans>
              </p>
              <p className="line-clamp-6 break-words whitespace-pre-wrap">{change.to}</p>
            </details>
          </li>
        ) : (
          <li key={change.field} className="break-words">
            <span className="font-medium text-slate-700">{labelOf(change)}:</span>{" "}
            {changedValueText(change.field, change.from)} →{" "}
            <span className="font-medium text-slate-900">{changedValueText(change.field, change.to)}</span>
          </li>
        ),
      )}
    </ul>
  );
}
