import { Trans } from "@lingui/react/macro";

/** "New": what someone else did while the reader wrote a reply that was then refused (decision 072). */
export function NewMark() {
  return (
    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      <Trans>New</Trans>
    </span>
  );
}
