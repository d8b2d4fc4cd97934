import type { MessageDescriptor } from "@lingui/core";
import type { LucideIcon } from "lucide-react";
import { Card } from "./card.tsx";
import { cn } from "./cn.ts";

type Tone = "indigo" | "blue" | "amber" | "green" | "slate";

/** One card of a row of counts: which field of a summary it shows, with its label, icon and tone. */
export interface CountCard<Summary> {
  /** Shown in the active language (decision 038). */
  label: MessageDescriptor;
  count: keyof Summary;
  icon: LucideIcon;
  tone: Tone;
}

const iconTones: Record<Tone, string> = {
  indigo: "bg-indigo-50 text-indigo-600",
  blue: "bg-blue-50 text-blue-600",
  amber: "bg-amber-50 text-amber-600",
  green: "bg-green-50 text-green-600",
  slate: "bg-slate-100 text-slate-600",
};

interface StatCardProps {
  label: string;
  /** undefined while the count loads. */
  value: number | undefined;
  icon: LucideIcon;
  tone?: Tone;
}

/** One dashboard count: "Open 4". */
export function StatCard({ label, value, icon: Icon, tone = "indigo" }: StatCardProps) {
  return (
    <Card className="flex flex-col items-start gap-3 p-4 sm:flex-row sm:items-center sm:gap-4 sm:p-5">
      <span
        className={cn(
          "flex size-9 shrink-0 items-center justify-center rounded-lg sm:size-11",
          iconTones[tone],
        )}
      >
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <dl className="min-w-0">
        <dt className="truncate text-sm font-medium text-slate-500">{label}</dt>
        <dd className="text-2xl font-semibold tracking-tight text-slate-900" aria-busy={value === undefined}>
          {value ?? "—"}
        </dd>
      </dl>
    </Card>
  );
}
