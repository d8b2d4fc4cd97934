import { type TicketChange, ticketChangeLabel } from "#shared/tickets/ticket-edit.ts";

/** An "edited" event's fields: "Priority: Low → High"; a description's old and new text fold away. */
export function TicketChanges({ changes }: { changes: TicketChange[] }) {
  return (
    <ul className="mt-1 flex flex-col gap-1 text-slate-600">
      {changes.map((change) =>
        change.field === "description" ? (
          <li key={change.field}>
            <details>
              <summary className="cursor-pointer">
                <span className="font-medium text-slate-700">Description</span> edited
              </summary>
              <p className="mt-1 text-xs font-medium text-slate-500">Before</p>
              <p className="line-clamp-6 break-words whitespace-pre-wrap text-slate-500 line-through decoration-slate-300">
                {change.from}
              </p>
              <p className="mt-1 text-xs font-medium text-slate-500">After</p>
              <p className="line-clamp-6 break-words whitespace-pre-wrap">{change.to}</p>
            </details>
          </li>
        ) : (
          <li key={change.field} className="break-words">
            <span className="font-medium text-slate-700">{ticketChangeLabel(change)}:</span> {change.from} →{" "}
            <span className="font-medium text-slate-900">{change.to}</span>
          </li>
        ),
      )}
    </ul>
  );
}
