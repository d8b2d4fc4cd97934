import { cn } from "./cn.ts";

/** Initials in a circle: "Ada Lovelace" → AL. Decorative; the name is always written beside it. */
export function PersonAvatar({ name, className }: { name: string; className?: string }) {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join("");
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700",
        className,
      )}
    >
      {initials || "?"}
    </span>
  );
}
