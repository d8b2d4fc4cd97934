import { Trans } from "@lingui/react/macro";
import { Button } from "./button.tsx";
import { cn } from "./cn.ts";

interface LoadFailedProps {
  message: string;
  onRetry: () => void;
  /** inline: the message and the button on one row (inside a card); block: centred, for a whole list. */
  layout?: "inline" | "block";
  className?: string;
}

/** A part of the page that could not be loaded, with Try again. */
export function LoadFailed({ message, onRetry, layout = "inline", className }: LoadFailedProps) {
  return (
    <div
      className={cn(
        "text-sm text-slate-600",
        layout === "inline"
          ? "flex items-center justify-between gap-3"
          : "flex flex-col items-center gap-3 py-12",
        className,
      )}
    >
      <p>{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}
