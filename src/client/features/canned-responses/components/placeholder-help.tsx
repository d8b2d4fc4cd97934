import { Trans } from "@lingui/react/macro";
import { placeholders, unknownPlaceholders } from "#shared/canned-responses/fill-placeholders.ts";

/** The placeholders a response may use, as help text under its editor. */
export function PlaceholderHelp({ id }: { id: string }) {
  return (
    <div id={id} className="rounded-lg bg-slate-50 px-3 py-2.5 text-xs text-slate-600">
      <p className="font-medium text-slate-700">
        <Trans>Placeholders, filled in when you insert the response:</Trans>
      </p>
      <ul className="mt-1.5 grid gap-x-4 gap-y-1 sm:grid-cols-2">
        {placeholders.map((placeholder) => (
          <li key={placeholder.name} className="min-w-0">
            <code className="rounded bg-white px-1 font-mono text-[11px] text-indigo-700 ring-1 ring-slate-200">
              {`{{${placeholder.name}}}`}
            </code>{" "}
            {placeholder.description}
          </li>
        ))}
      </ul>
      <p className="mt-1.5">
        <Trans>Anything else in double braces is left as written.</Trans>
      </p>
    </div>
  );
}

/** A warning naming the placeholders of `body` that will not be filled, or nothing. */
export function UnknownPlaceholderWarning({ body }: { body: string }) {
  const unknown = unknownPlaceholders(body);
  if (unknown.length === 0) return null;
  const names = unknown.map((name) => `{{${name}}}`).join(", ");
  return (
    <p role="status" className="text-sm text-amber-700">
      {unknown.length === 1 ? (
        <Trans>Unknown placeholder {names}: left as written when inserted.</Trans>
      ) : (
        <Trans>Unknown placeholders {names}: left as written when inserted.</Trans>
      )}
    </p>
  );
}
