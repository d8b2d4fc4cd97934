import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  /** The title's element: h1 when the empty state is the whole page (Page not found). */
  titleAs?: "h1" | "h2" | "h3" | "p";
}

export function EmptyState({
  icon: Icon,
  title,
  description,
  action,
  titleAs: Title = "p",
}: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <Title className="mt-4 text-base font-semibold text-slate-900">{title}</Title>
      {description ? <div className="mt-1 max-w-md text-sm text-slate-500">{description}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
